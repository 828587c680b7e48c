// The CLI version a run uses, and a warning when lab was not verified with
// it: compact for the runs list, a one-line note for the chat.

import { Show } from "solid-js";
import type { Run } from "../api";
import { cliVersion, cliWarning } from "../lib/format";

/** CliBadge is a small warning badge for a run on an unverified CLI; nothing otherwise. */
export function CliBadge(props: { run: Pick<Run, "cli_version" | "cli_verified"> }) {
  const v = () => cliVersion(props.run);
  return (
    <Show when={v()?.unverified}>
      <span class="badge cli-unverified" data-cli-unverified={props.run.cli_version} title={cliWarning(props.run.cli_version ?? "")}>
        ⚠ {v()!.label}
      </span>
    </Show>
  );
}

/** CliNote is the chat's one-line warning for a run on an unverified CLI. */
export function CliNote(props: { run: Pick<Run, "cli_version" | "cli_verified"> | null }) {
  const v = () => (props.run ? cliVersion(props.run) : null);
  return (
    <Show when={v()?.unverified}>
      <p class="cli-note" role="note" data-cli-unverified={props.run!.cli_version}>
        ⚠ {cliWarning(props.run!.cli_version ?? "")}
      </p>
    </Show>
  );
}
