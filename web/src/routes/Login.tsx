// Login, and the first-run setup that sets the operator's password with the
// one-time setup token the server printed at start.

import { createSignal, onCleanup, Show } from "solid-js";
import { api } from "../api";
import { authFailure, waitText } from "../lib/message";

/**
 * setupTokenFromURL reads the token of the setup link the server logs
 * (/setup#token=…; the fragment never reaches a server log or a proxy), and
 * removes it from the address bar.
 */
function setupTokenFromURL(): string {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, "")).get("token");
  const fromQuery = new URLSearchParams(location.search).get("setup_token");
  if (fromHash) history.replaceState(null, "", location.pathname + location.search);
  return fromHash ?? fromQuery ?? "";
}

export function Login(props: { setup: boolean; onDone: () => void }) {
  const [token, setToken] = createSignal(setupTokenFromURL());
  const [password, setPassword] = createSignal("");
  const [confirm, setConfirm] = createSignal("");
  const [error, setError] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  // A lockout: no attempt before lockedUntil (ms); now ticks to count down.
  const [lockedUntil, setLockedUntil] = createSignal(0);
  const [now, setNow] = createSignal(Date.now());
  const tick = setInterval(() => setNow(Date.now()), 1000);
  onCleanup(() => clearInterval(tick));
  const waitLeft = () => Math.max(0, (lockedUntil() - now()) / 1000);

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    if (waitLeft() > 0) return;
    setError("");
    if (props.setup && password() !== confirm()) {
      setError("The passwords differ.");
      return;
    }
    setBusy(true);
    try {
      if (props.setup) {
        const st = await api.setup(token().trim(), password());
        if (!st?.logged_in) await api.login(password());
      } else await api.login(password());
      props.onDone();
    } catch (err) {
      const f = authFailure(err);
      setError(f.text);
      if (f.wait > 0) {
        setNow(Date.now());
        setLockedUntil(Date.now() + f.wait * 1000);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="screen login">
      <form class="login-box" onSubmit={submit}>
        <h1>lab</h1>
        <Show
          when={props.setup}
          fallback={<p class="muted">Sign in to steer your Claude Code runs.</p>}
        >
          <p class="muted">First run: enter the setup token lab printed when it started, and choose a password.</p>
          <label>
            Setup token
            <input name="setup_token" autocomplete="one-time-code" value={token()} onInput={(e) => setToken(e.currentTarget.value)} required />
          </label>
        </Show>
        <label>
          Password
          <input
            name="password"
            type="password"
            autocomplete={props.setup ? "new-password" : "current-password"}
            value={password()}
            onInput={(e) => setPassword(e.currentTarget.value)}
            required
          />
        </label>
        <Show when={props.setup}>
          <label>
            Repeat password
            <input name="confirm" type="password" autocomplete="new-password" value={confirm()} onInput={(e) => setConfirm(e.currentTarget.value)} required />
          </label>
        </Show>
        <Show when={error()}>
          <p class="error" role="alert" data-auth-error>
            {error()}
            <Show when={waitLeft() > 0}>
              {" "}
              <span data-wait>Try again in {waitText(waitLeft())}.</span>
            </Show>
          </p>
        </Show>
        <button class="btn primary" type="submit" disabled={busy() || waitLeft() > 0}>
          {props.setup ? "Set password" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
