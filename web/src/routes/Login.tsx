// Login, and the first-run setup that sets the operator's password with the
// one-time setup token the server printed at start.

import { createSignal, Show } from "solid-js";
import { api, ApiError } from "../api";

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

  async function submit(e: SubmitEvent) {
    e.preventDefault();
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
      setError(err instanceof ApiError && err.status === 401 ? "Wrong password." : err instanceof Error ? err.message : String(err));
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
          <p class="error" role="alert">
            {error()}
          </p>
        </Show>
        <button class="btn primary" type="submit" disabled={busy()}>
          {props.setup ? "Set password" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
