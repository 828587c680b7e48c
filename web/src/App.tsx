// The shell: asks the server whether setup or login is needed, then shows
// the screen the URL names. Any 401 from the API returns to login.

import { createSignal, Match, onCleanup, onMount, Show, Suspense, Switch } from "solid-js";
import { api, onUnauthorized } from "./api";
import { startEvents, stopEvents } from "./events";
import { match, navigate, path } from "./router";
import { createWide, NoRunOpen, Split } from "./components/Split";
import { Attach, History, NewRun, preloadChat, preloadScreen, RunChat, SessionChat, Settings } from "./routes/lazy";
import { Login } from "./routes/Login";
import { Runs } from "./routes/Runs";
import { trackAttention } from "./badge";
import { registerWorker, trackPresence } from "./push";
import { startOutbox } from "./outbox";

type Auth = "checking" | "setup" | "login" | "in" | "offline";

export function App() {
  const [auth, setAuth] = createSignal<Auth>("checking");
  const [offlineMsg, setOfflineMsg] = createSignal("");

  async function check() {
    try {
      const s = await api.authStatus();
      if (s.setup_needed || s.setup_required) setAuth("setup");
      else if (!s.logged_in) setAuth("login");
      else {
        setAuth("in");
        startEvents();
      }
    } catch (e) {
      setOfflineMsg(e instanceof Error ? e.message : String(e));
      setAuth("offline");
    }
  }

  onMount(() => {
    preloadScreen(match(path()).name);
    void registerWorker();
    void check();
  });
  const off = onUnauthorized(() => {
    stopEvents();
    setAuth("login");
  });
  onCleanup(off);

  // Wide screens show the runs list beside the open run (Split.tsx).
  const wide = createWide();
  const runId = () => {
    const r = match(path());
    return r.name === "run" ? r.id : "";
  };

  const loggedIn = () => {
    setAuth("in");
    startEvents();
    if (["login", "setup"].includes(match(path()).name)) navigate("/", true);
  };

  return (
    <Switch>
      <Match when={auth() === "checking"}>
        <div class="screen center muted">Loading…</div>
      </Match>
      <Match when={auth() === "offline"}>
        <div class="screen center">
          <p>{offlineMsg()}</p>
          <button class="btn" onClick={check}>
            Retry
          </button>
        </div>
      </Match>
      <Match when={auth() === "setup" || auth() === "login"}>
        <Login setup={auth() === "setup"} onDone={loggedIn} />
      </Match>
      <Match when={auth() === "in"}>
        <SignedIn />
        <Show when={wide() && ["runs", "run"].includes(match(path()).name)} fallback={screens()}>
          <Split list={<Runs selected={runId()} />}>
            <Suspense fallback={loading()}>
              <Show when={runId()} keyed fallback={<NoRunOpen />}>
                {(id) => <RunChat id={id} />}
              </Show>
            </Suspense>
          </Split>
        </Show>
      </Match>
    </Switch>
  );

  /** screens is one screen at a time, as the URL names it. */
  function screens() {
    return (
      <Suspense fallback={loading()}>
        <Show when={match(path())} keyed>
          {(r) => (
            <Switch fallback={<Runs />}>
              <Match when={r.name === "new"}>
                <NewRun />
              </Match>
              <Match when={r.name === "attach"}>
                <Attach />
              </Match>
              <Match when={r.name === "run" && r}>{(rr) => <RunChat id={(rr() as { id: string }).id} />}</Match>
              <Match when={r.name === "history"}>
                <History />
              </Match>
              <Match when={r.name === "session" && r}>{(rr) => <SessionChat id={(rr() as { id: string }).id} />}</Match>
              <Match when={r.name === "settings"}>
                <Settings />
              </Match>
            </Switch>
          )}
        </Show>
      </Suspense>
    );
  }
}

const loading = () => <div class="screen center muted">Loading…</div>;

/** SignedIn runs what lives as long as a login: presence, title and badge. */
function SignedIn() {
  trackPresence();
  trackAttention();
  onMount(() => {
    preloadChat();
    // Replies and answers kept from before (a page the phone discarded
    // while offline) go now, the rest when the connection is back.
    startOutbox();
  });
  return null;
}
