// Settings → Machines: the other labs whose runs this one shows (its
// peers), each with whether it answers now, and a form to add one with the
// token it issued (`lab token create --relay NAME` there). The token is
// write-only: the server never sends it back. Loaded on its own, when
// Settings opens.

import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import { api, errorText, type Machine, type PeerList } from "../api";
import { subscribe } from "../events";
import { clock, isDown, machineNote, peerNameOK } from "../lib/machines";
import "../styles/machines.css";
import { Alert, Note } from "./Alert";

export default function Peers() {
  const [list, setList] = createSignal<PeerList | null>(null);
  const [name, setName] = createSignal("");
  const [url, setURL] = createSignal("");
  const [token, setToken] = createSignal("");
  const [allowHTTP, setAllowHTTP] = createSignal(false);
  const [busy, setBusy] = createSignal("");
  const [error, setError] = createSignal("");
  const [note, setNote] = createSignal("");

  async function load() {
    try {
      setList(await api.peers());
    } catch (e) {
      setError(errorText(e));
    }
  }
  onMount(() => {
    void load();
    onCleanup(subscribe((e) => e.type === "machine.changed" && load(), load));
    if (location.hash === "#machines") document.getElementById("machines")?.scrollIntoView();
  });

  async function add(e: Event) {
    e.preventDefault();
    if (busy()) return;
    if (!peerNameOK(name().trim())) {
      setError("A machine's name is 1-32 lowercase letters, digits or '-': it prefixes its runs' ids.");
      return;
    }
    setBusy("add");
    setError("");
    setNote("");
    try {
      const m = await api.addPeer({ name: name().trim(), url: url().trim(), token: token().trim(), allow_http: allowHTTP() || undefined });
      setNote(m.status === "ok" ? `${m.name} added: its runs show in the list.` : `${m.name} added; ${machineNote(m) || "lab keeps trying to reach it"}.`);
      setName("");
      setURL("");
      setToken("");
      setAllowHTTP(false);
    } catch (err) {
      setError(errorText(err)); // the token stays in the field: nothing typed is lost
    } finally {
      setBusy("");
      void load();
    }
  }

  const [confirming, setConfirming] = createSignal("");

  async function remove(m: Machine) {
    setConfirming("");
    setBusy("remove-" + m.name);
    setError("");
    try {
      await api.removePeer(m.name);
      setNote(`${m.name} removed.`);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy("");
      void load();
    }
  }

  return (
    <section class="settings" aria-labelledby="machines-h" id="machines" data-testid="peers">
      <h2 id="machines-h">Machines</h2>
      <p class="muted small">
        Show and steer the runs of labs on other machines here. On the other machine, run <code>lab token create --relay NAME</code> and give that token below.
        <Show when={list()}> This lab is <strong>{list()!.machine}</strong>.</Show>
      </p>
      <Alert error={error()} />
      <Note note={note()} />
      <Show when={(list()?.peers ?? []).length > 0}>
        <ul class="devices">
          <For each={list()!.peers}>
            {(m) => (
              <li class="device" data-peer={m.name} data-status={m.status}>
                <div class="device-head">
                  <div class="grow">
                    <div class="device-name">{m.name}</div>
                    <div class="muted small">
                      {m.url}
                      <Show when={m.allow_http}> · plain http allowed</Show>
                      <Show when={m.added_at}> · added {clock(m.added_at!)}</Show>
                    </div>
                    <div classList={{ small: true, error: isDown(m), muted: !isDown(m) }} data-peer-status>
                      {m.status === "ok" ? "reachable" : machineNote(m)}
                    </div>
                    <Show when={isDown(m) && m.error}>
                      <div class="muted small">{m.error}</div>
                    </Show>
                  </div>
                </div>
                <Show
                  when={confirming() === m.name}
                  fallback={
                    <div class="device-actions">
                      <button class="btn" disabled={busy() !== ""} onClick={() => setConfirming(m.name)} data-action="remove-peer">
                        Remove…
                      </button>
                    </div>
                  }
                >
                  <p class="small">Stop showing {m.name}'s runs here and forget its token? Revoke the token on {m.name} too.</p>
                  <div class="device-actions">
                    <button class="btn danger" disabled={busy() !== ""} onClick={() => remove(m)} data-action="confirm-remove-peer">
                      Remove {m.name}
                    </button>
                    <button class="btn" onClick={() => setConfirming("")}>
                      Cancel
                    </button>
                  </div>
                </Show>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <form class="form peer-add" onSubmit={add} data-testid="add-peer">
        <label>
          Name
          <input name="peer_name" value={name()} onInput={(e) => setName(e.currentTarget.value)} placeholder="build" autocapitalize="off" autocomplete="off" spellcheck={false} maxLength={32} required />
        </label>
        <label>
          Address
          <input name="peer_url" type="url" value={url()} onInput={(e) => setURL(e.currentTarget.value)} placeholder="https://build.example.org" autocapitalize="off" autocomplete="off" spellcheck={false} required />
        </label>
        <label>
          Token
          <input name="peer_token" type="password" value={token()} onInput={(e) => setToken(e.currentTarget.value)} placeholder="lab_…" autocomplete="off" required />
        </label>
        <label class="toggle">
          <input type="checkbox" name="allow_http" checked={allowHTTP()} onChange={(e) => setAllowHTTP(e.currentTarget.checked)} />
          <span class="grow">
            Allow plain http
            <span class="muted small hint">only on a private network you trust: the token crosses it in clear</span>
          </span>
        </label>
        <button class="btn primary" type="submit" disabled={busy() !== ""} data-action="add-peer">
          Add machine
        </button>
      </form>
    </section>
  );
}
