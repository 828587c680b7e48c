// Writing Claude Code transcripts (JSONL, the 2.1.328 line shapes) into a
// test HOME, so history can open conversations the suite controls: one
// full of script payloads, one with 10,000 messages.
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** projectDir is where the CLI keeps transcripts of cwd under home. */
export function projectDir(home, cwd) {
  return join(home, ".claude", "projects", cwd.replace(/[^A-Za-z0-9]/g, "-"));
}

export class Transcript {
  constructor(cwd, sessionId = randomUUID()) {
    this.cwd = cwd;
    this.sessionId = sessionId;
    this.lines = [];
    this.parent = null;
    this.t = Date.parse("2026-07-08T09:00:00Z");
  }
  push(type, message, extra = {}) {
    const uuid = randomUUID();
    this.t += 1000;
    this.lines.push(
      JSON.stringify({
        parentUuid: this.parent,
        isSidechain: false,
        type,
        message,
        uuid,
        timestamp: new Date(this.t).toISOString(),
        userType: "external",
        cwd: this.cwd,
        sessionId: this.sessionId,
        version: "2.1.328",
        ...extra,
      }),
    );
    this.parent = uuid;
    return this;
  }
  user(text) {
    return this.push("user", { role: "user", content: text });
  }
  assistant(text) {
    return this.push("assistant", { id: "msg_" + randomUUID(), type: "message", role: "assistant", model: "claude-test", content: [{ type: "text", text }], stop_reason: "end_turn" });
  }
  bash(command, output, isError = false) {
    const id = "toolu_" + randomUUID().replaceAll("-", "");
    this.push("assistant", { id: "msg_" + randomUUID(), type: "message", role: "assistant", model: "claude-test", content: [{ type: "tool_use", id, name: "Bash", input: { command } }], stop_reason: "tool_use" });
    return this.push(
      "user",
      { role: "user", content: [{ tool_use_id: id, type: "tool_result", content: output, is_error: isError }] },
      { toolUseResult: { stdout: output, stderr: "", interrupted: false, isImage: false } },
    );
  }
  write(home) {
    const dir = projectDir(home, this.cwd);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, this.sessionId + ".jsonl");
    writeFileSync(file, this.lines.join("\n") + "\n");
    return file;
  }
}

/** xssTranscript carries script payloads everywhere text reaches the screen. */
export function xssTranscript(cwd) {
  const payload = (tag) => `<img src=x onerror="window.__xss='${tag}'"><script>window.__xss='${tag}'</script>`;
  return new Transcript(cwd)
    .user("XSS probe " + payload("prompt"))
    .assistant(`Here: ${payload("text")}\n\n[click](javascript:window.__xss='link')\n\n<iframe src="javascript:window.__xss='frame'"></iframe>\n\n<svg onload="window.__xss='svg'"></svg>`)
    .bash(`echo '${payload("input")}'`, `${payload("output")}\n<svg/onload=window.__xss='out2'>`)
    .assistant("done");
}

/** longTranscript has about n stream messages: prompts, replies, tool calls. */
export function longTranscript(cwd, n = 10000) {
  const t = new Transcript(cwd);
  let count = 0;
  for (let i = 0; count < n; i++) {
    t.user(`Prompt ${i}: continue with part ${i}.`);
    t.assistant(`Reply **${i}** with some *markdown*, \`code\` and a list:\n\n- one\n- two\n\nEnd of reply ${i}.`);
    count += 2;
    if (i % 4 === 3 && count < n) {
      t.bash(`ls part-${i}`, `file-${i}.txt\n`);
      count += 1;
    }
  }
  return t;
}
