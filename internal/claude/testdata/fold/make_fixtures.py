#!/usr/bin/env python3
# Writes the hand-written fold fixtures of this directory (see README.md):
#   python3 make_fixtures.py .
# The output is deterministic; regenerate the goldens after a change with
#   go test ./internal/claude -run TestFoldGolden -update
import json, os, sys, zlib

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)

def dumps(o):
    return json.dumps(o, ensure_ascii=False, separators=(',', ':'))

class T:
    def __init__(self, name, sid, version="2.1.328", cwd="/tmp/x/work"):
        self.name, self.sid, self.version, self.cwd = name, sid, version, cwd
        self.lines = []
        self.n = 0
        self.prev = None
        self.sec = 0
        self.tool = 0
        self.msgid = 0
    def uid(self):
        self.n += 1
        return "%08x-0000-4000-8000-%012x" % (zlib.crc32(self.name.encode()), self.n)
    def ts(self):
        self.sec += 1
        return "2026-07-08T10:%02d:%02d.%03dZ" % (self.sec // 60, self.sec % 60, (self.sec * 37) % 1000)
    def common(self, sidechain=False):
        return {"parentUuid": self.prev, "isSidechain": sidechain, "userType": "external", "cwd": self.cwd,
                "sessionId": self.sid, "version": self.version, "gitBranch": ""}
    def raw(self, s):
        self.lines.append(s)
    def add(self, o):
        self.lines.append(dumps(o))
    def user(self, content, extra=None, sidechain=False):
        u = self.uid()
        o = self.common(sidechain)
        o.update({"type": "user", "message": {"role": "user", "content": content}, "uuid": u, "timestamp": self.ts()})
        if extra: o.update(extra)
        self.prev = u
        self.add(o)
    def assistant(self, block, stop=None, extra=None, newmsg=True, sidechain=False, model="claude-sonnet-4-5-20250929"):
        if newmsg: self.msgid += 1
        u = self.uid()
        o = self.common(sidechain)
        o.update({"message": {"model": model, "id": "msg_01%022d" % self.msgid, "type": "message", "role": "assistant",
                              "content": [block] if isinstance(block, dict) else block, "stop_reason": stop, "stop_sequence": None,
                              "usage": {"input_tokens": 4, "cache_creation_input_tokens": 1200, "cache_read_input_tokens": 11000, "output_tokens": 37, "service_tier": "standard"}},
                  "requestId": "req_01%022d" % self.msgid, "type": "assistant", "uuid": u, "timestamp": self.ts()})
        if extra: o.update(extra)
        self.prev = u
        self.add(o)
    def system(self, subtype, fields):
        u = self.uid()
        o = self.common()
        o.update({"type": "system", "subtype": subtype})
        o.update(fields)
        o.update({"timestamp": self.ts(), "uuid": u})
        self.prev = u
        self.add(o)
    def toolid(self):
        self.tool += 1
        return "toolu_01%s%04d" % (self.name[:6].replace('-', 'x').ljust(6, 'x'), self.tool)
    def tool_use(self, name, inp, stop="tool_use", newmsg=False):
        tid = self.toolid()
        self.assistant({"type": "tool_use", "id": tid, "name": name, "input": inp}, stop=stop, newmsg=newmsg)
        return tid
    def tool_result(self, tid, content, tur, is_error=None, extra=None):
        blk = {"tool_use_id": tid, "type": "tool_result", "content": content}
        if is_error is not None: blk["is_error"] = is_error
        e = {"toolUseResult": tur, "sourceToolAssistantUUID": self.prev}
        if extra: e.update(extra)
        self.user([blk], extra=e)
    def bookkeeping(self):
        self.add({"type": "permission-mode", "permissionMode": "auto", "sessionId": self.sid})
        self.add({"type": "file-history-snapshot", "messageId": self.uid(), "snapshot": {"messageId": self.uid(), "trackedFileBackups": {}, "timestamp": "2026-07-08T10:00:00.000Z"}, "isSnapshotUpdate": False})
    def blob(self, size=1500):
        self.add({"type": "api-request-shape", "sessionId": self.sid, "shapeHash": "sh_" + self.name, "timestamp": self.ts(), "version": self.version, "shape": {"system": [{"type": "text", "text": "You are Claude Code"}], "tools": [{"name": "Bash"}, {"name": "AskUserQuestion"}]}})
        self.add({"type": "api-request-blob", "sessionId": self.sid, "hash": "bl_%s_%d" % (self.name, self.n), "message": {"role": "user", "content": [{"type": "text", "text": "x" * size + " \"quoted\" \\ back"}]}})
        self.add({"type": "api-request", "sessionId": self.sid, "requestId": "req_x", "shapeHash": "sh_" + self.name, "blobs": ["bl_1", "bl_2"], "timestamp": self.ts()})
    def tail_bookkeeping(self):
        self.add({"type": "last-prompt", "lastPrompt": "whatever", "sessionId": self.sid})
        self.add({"type": "cost-state", "sessionId": self.sid, "totalCostUsd": 0.0123, "models": {"claude-sonnet-4-5-20250929": {"inputTokens": 1234}}})
    def turn_end(self):
        self.system("turn_duration", {"durationMs": 5321, "messageCount": 6, "pendingBackgroundAgentCount": 0, "pendingWorkflowCount": 0, "isMeta": False})
    def write(self):
        with open(os.path.join(OUT, self.name + ".jsonl"), "w") as f:
            for l in self.lines:
                f.write(l + "\n")

def sid(n):
    return "7ae2%04d-1b2c-4d5e-8f90-a1b2c3d4e5f6" % n

# ---------------------------------------------------------------- basic
t = T("basic", sid(1))
t.bookkeeping()
t.user("<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>", extra={"isMeta": True})
t.user("List the files here and show me go.mod")
t.blob()
t.assistant({"type": "thinking", "thinking": "The user wants a listing. I'll run ls first.", "signature": "EuYBCkYIBxgCKkB"})
t.assistant({"type": "text", "text": "I'll look around first."}, newmsg=False)
b = t.tool_use("Bash", {"command": "ls -la", "description": "List files"})
t.add({"type": "tools-used", "sessionId": t.sid, "tools": ["Bash"]})
listing = "total 16\ndrwxr-xr-x 2 u u 4096 Jul  8 10:00 .\n-rw-r--r-- 1 u u   31 Jul  8 10:00 go.mod\n-rw-r--r-- 1 u u  120 Jul  8 10:00 main.go"
t.tool_result(b, listing, {"stdout": listing, "stderr": "", "interrupted": False, "isImage": False}, is_error=False)
t.blob()
r = t.tool_use("Read", {"file_path": "/tmp/x/work/go.mod"}, newmsg=True)
t.tool_result(r, "     1\tmodule example.com/work\n     2\t\n     3\tgo 1.26\n", {"type": "text", "file": {"filePath": "/tmp/x/work/go.mod", "content": "module example.com/work\n\ngo 1.26\n", "numLines": 3, "startLine": 1, "totalLines": 3}})
big = "".join("line %05d: the quick brown fox jumps over the lazy dog — ünïcödé\n" % i for i in range(80))
g = t.tool_use("Bash", {"command": "cat <<'EOF' > gen.txt\nhello\nEOF\nseq 1 200", "description": "Multi-line command"}, newmsg=True)
t.tool_result(g, big, {"stdout": big, "stderr": "", "interrupted": False, "isImage": False}, is_error=False)
e = t.tool_use("Read", {"file_path": "/tmp/x/work/missing.go"}, newmsg=True)
t.tool_result(e, "<tool_use_error>File does not exist.</tool_use_error>", "Error: File does not exist.", is_error=True)
w = t.tool_use("Write", {"file_path": "/tmp/x/work/notes.md", "content": "# Notes\n\nline\n" * 50}, newmsg=True)
t.tool_result(w, [{"type": "text", "text": "File created successfully at: /tmp/x/work/notes.md"}], {"type": "create", "filePath": "/tmp/x/work/notes.md", "content": "..."})
gr = t.tool_use("Grep", {"pattern": "func main", "path": "/tmp/x/work", "output_mode": "content"}, newmsg=True)
t.tool_result(gr, [{"type": "text", "text": "main.go:3:func main() {"}, {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}], {"mode": "content", "numFiles": 1})
td = t.tool_use("TodoWrite", {"todos": [{"content": "a", "status": "pending", "activeForm": "A"}, {"content": "b", "status": "pending", "activeForm": "B"}]}, newmsg=True)
t.tool_result(td, "Todos have been modified successfully.", {"oldTodos": [], "newTodos": []})
mc = t.tool_use("mcp__srv__lookup", {"key": "alpha", "n": 3}, newmsg=True)
t.tool_result(mc, "alpha=1", None)
t.assistant({"type": "text", "text": "Here is what I found:\n\n- `go.mod` declares `example.com/work`\n- `main.go` has `func main`"}, stop="end_turn", newmsg=True)
t.turn_end()
t.tail_bookkeeping()
t.write()

# ---------------------------------------------------------------- commands
t = T("commands", sid(2))
t.bookkeeping()
t.user("<local-command-caveat>Caveat: ...</local-command-caveat>", extra={"isMeta": True})
t.user("<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>sonnet</command-args>")
t.user("<local-command-stdout>Set model to \u001b[1mSonnet 4.5\u001b[22m</local-command-stdout>")
t.user("<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>")
t.user("<local-command-stdout></local-command-stdout>")
t.system("local_command", {"content": "<command-name>/cost</command-name>\n<command-message>cost</command-message>\n<command-args></command-args>", "level": "info", "isMeta": False})
t.system("local_command", {"content": "<local-command-stdout>Total cost: $0.0123</local-command-stdout>", "level": "info", "isMeta": False})
t.user("Summarise the repo")
t.assistant({"type": "text", "text": "Sub-task started."}, sidechain=True)
t.user("sidechain prompt", sidechain=True)
t.system("api_error", {"level": "error", "error": {"status": 529, "error": {"type": "overloaded_error", "message": "Overloaded"}}, "retryInMs": 1000, "retryAttempt": 1, "maxRetries": 10})
t.assistant({"type": "text", "text": "API Error: 500 {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"Internal server error\"}}"}, stop="stop_sequence", extra={"isApiErrorMessage": True}, model="<synthetic>")
t.user([{"type": "text", "text": "Try again please"}, {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}])
t.assistant({"type": "text", "text": "Done: the repo is small."}, newmsg=True)
t.system("compact_boundary", {"content": "Conversation compacted", "isMeta": False, "level": "info", "compactMetadata": {"trigger": "manual", "preTokens": 23000}})
t.user("This session is being continued from a previous conversation that ran out of context. The conversation is summarized below: ...", extra={"isCompactSummary": True, "isVisibleInTranscriptOnly": True})
t.user("<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>")
t.user("<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>")
t.user("<bash-input>git status</bash-input>")
t.user("<bash-stdout>On branch main\nnothing to commit</bash-stdout><bash-stderr></bash-stderr>")
t.system("stop_hook_summary", {"hookCount": 1, "hookInfos": [], "hookErrors": [], "preventedContinuation": False, "stopReason": "", "hasOutput": False, "level": "suggestion"})
t.write()

# ---------------------------------------------------------------- malformed
t = T("malformed", sid(3))
t.bookkeeping()
t.user("hello")
t.raw('{"type":"user","message":{"role":"user","content":"torn')
t.raw('not json at all')
t.raw('')
t.raw('   ')
t.raw('[1,2,3]')
t.raw('{"type":"user","message":"a string"}')
t.raw('{"type":"user","message":{"role":"user","content":"trailing"}} x')
t.raw('{"parentUuid":null,"attachment":{"type":"hook_success","content":"ok"},"type":"attachment","uuid":"a1"}')
t.raw('{"type":"future-bookkeeping-type","payload":{"deep":[1,2,{"x":"y"}]}}')
t.raw('{"type":"progress","data":{"type":"hook_progress"}')  # torn bookkeeping: skipped by type, not counted
t.assistant({"type": "text", "text": "Hello! How can I help?"}, stop="end_turn")
t.raw('{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"bad escape \\q"}]}}')
t.write()

# ---------------------------------------------------------------- questions
Q_DB = {"question": "Which database should we use?", "header": "Database", "multiSelect": False,
        "options": [{"label": "SQLite", "description": "Embedded, zero setup"}, {"label": "PostgreSQL", "description": "Server, more features"}, {"label": "MySQL", "description": "Popular"}]}
Q_TOP = {"question": "Which toppings do you want?", "header": "Toppings", "multiSelect": True,
         "options": [{"label": "Cheese", "description": "Mozzarella"}, {"label": "Olives", "description": "Black olives"}, {"label": "Salt, pepper", "description": "Both"}, {"label": "Ham", "description": ""}]}
Q_COLOR = {"question": "Which color do you prefer?", "header": "Color", "multiSelect": False,
           "options": [{"label": "Red", "description": "Warm"}, {"label": "Blue", "description": "Cool"}]}
Q_SIZE = {"question": "Which size?", "header": "Size", "multiSelect": False,
          "options": [{"label": "Small", "description": ""}, {"label": "Large", "description": ""}]}

def qtranscript(name, n, questions, resolution, version="2.1.328", after=None):
    t = T(name, sid(n), version=version)
    t.bookkeeping()
    t.user("Help me set up the project")
    t.blob()
    t.assistant({"type": "text", "text": "I have a question first."})
    tid = t.tool_use("AskUserQuestion", {"questions": questions})
    if resolution is not None:
        resolution(t, tid)
        t.blob()
        if after: after(t)
        else:
            t.assistant({"type": "text", "text": "Thanks, proceeding."}, stop="end_turn", newmsg=True)
            t.turn_end()
    t.tail_bookkeeping()
    t.write()

def answered(answers, text):
    def r(t, tid):
        qs = json.loads(t.lines[-1])["message"]["content"][0]["input"]["questions"]
        t.tool_result(tid, text, {"questions": qs, "answers": answers, "annotations": {}})
    return r

qtranscript("question-single", 10, [Q_DB], answered({Q_DB["question"]: "SQLite"},
    'User has answered your questions: "Which database should we use?"="SQLite". You can now continue with the user\'s answers in mind.'))
qtranscript("question-freetext", 11, [Q_DB], answered({Q_DB["question"]: "DuckDB, embedded"},
    'User has answered your questions: "Which database should we use?"="DuckDB, embedded". You can now continue with the user\'s answers in mind.'))
qtranscript("question-multi", 12, [Q_TOP], answered({Q_TOP["question"]: "Olives, Salt, pepper, Cheese, no anchovies, please"},
    'User has answered your questions: "Which toppings do you want?"="Olives, Salt, pepper, Cheese, no anchovies, please". You can now continue with the user\'s answers in mind.'))
qtranscript("question-form", 13, [Q_COLOR, Q_SIZE], answered({Q_COLOR["question"]: "Blue", Q_SIZE["question"]: "Large"},
    'User has answered your questions: "Which color do you prefer?"="Blue", "Which size?"="Large". You can now continue with the user\'s answers in mind.'))

def declined(t, tid):
    t.tool_result(tid, "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
                  "User rejected tool use", is_error=True, extra={"toolDenialKind": "user-rejected"})
def declined_after(t):
    t.user([{"type": "text", "text": "[Request interrupted by user for tool use]"}])
qtranscript("question-declined", 14, [Q_DB], declined, after=declined_after)
qtranscript("question-pending", 15, [Q_DB, Q_TOP], None)

# timeout, 2.1.198 shapes
def timeout(t, tid):
    qs = json.loads(t.lines[-1])["message"]["content"][0]["input"]["questions"]
    t.tool_result(tid, "No response after 60s — the user may be away from keyboard. Proceed using your best judgment based on the context so far; you can re-ask this question later if it's still relevant.",
                  {"questions": qs, "answers": {}, "afkTimeoutMs": 60000})
qtranscript("v2.1.198-timeout", 16, [Q_DB], timeout, version="2.1.198")

# ---------------------------------------------------------------- plans
PLAN = "# Plan: add a cache\n\n## Steps\n\n1. Add `cache.go` with an LRU of 128 entries.\n2. Wire it into `Lookup`.\n3. Test hits and evictions.\n\n" + "\n".join("- detail %d: keep the cache bounded and measured" % i for i in range(20)) + "\n\n```go\nfunc Lookup(k string) (V, bool)\n```\n"

def ptranscript(name, n, resolution, version="2.1.198" if False else "2.1.328", after=None, flush_together=False):
    t = T(name, sid(n), version=version)
    t.bookkeeping()
    t.add({"type": "mode", "mode": "plan", "sessionId": t.sid})
    t.user("Plan a cache for lookups")
    t.blob()
    t.assistant({"type": "thinking", "thinking": "I should write the plan file then call ExitPlanMode.", "signature": "sig"})
    wr = t.tool_use("Write", {"file_path": "/tmp/x/home/.claude/plans/quiet-cache.md", "content": PLAN}, newmsg=False)
    t.tool_result(wr, "File created successfully at: /tmp/x/home/.claude/plans/quiet-cache.md", {"type": "create", "filePath": "/tmp/x/home/.claude/plans/quiet-cache.md", "content": PLAN})
    tid = t.tool_use("ExitPlanMode", {"plan": PLAN, "planFilePath": "/tmp/x/home/.claude/plans/quiet-cache.md"}, newmsg=True)
    if resolution is not None:
        resolution(t, tid)
        if after: after(t)
        else:
            t.assistant({"type": "text", "text": "Starting with cache.go."}, stop="tool_use", newmsg=True)
    t.tail_bookkeeping()
    t.write()

def approved(t, tid):
    t.tool_result(tid, "User has approved your plan. You can now start coding. Start with updating your todo list if applicable\n\nYour plan has been saved to: /tmp/x/home/.claude/plans/quiet-cache.md\nYou can refer back to it if needed during implementation.\n\n## Approved Plan:\n" + PLAN,
                  {"plan": PLAN, "isAgent": False, "filePath": "/tmp/x/home/.claude/plans/quiet-cache.md"})
REJECT = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n"
def rejected(t, tid):
    fb = "Use a TTL instead of LRU.\nAlso: the user said:\nkeep it small"
    t.tool_result(tid, REJECT + fb, REJECT + fb, is_error=True, extra={"toolDenialKind": "user-rejected"})
def rejected_after(t):
    t.assistant({"type": "thinking", "thinking": "Revise the plan with a TTL.", "signature": "s"}, newmsg=True)
def plan_declined(t, tid):
    declined(t, tid)
ptranscript("plan-approved", 20, approved)
ptranscript("plan-rejected", 21, rejected, after=rejected_after)
ptranscript("plan-declined", 22, plan_declined, after=declined_after)
ptranscript("plan-pending", 23, None)
ptranscript("v2.1.198-plan", 24, approved, version="2.1.198")

# ---------------------------------------------------------------- interrupted mid-stream
t = T("interrupted", sid(30))
t.bookkeeping()
t.user("Write a long essay about caches")
t.blob()
t.assistant({"type": "text", "text": "Caches trade memory for"})
t.user([{"type": "text", "text": "[Request interrupted by user]"}])
t.user("Shorter please")
t.assistant({"type": "thinking", "thinking": "Keep it short.", "signature": "s"}, newmsg=True)
t.write()

# a pending dialog dismissed by an interrupt with no tool_result (process killed / resumed)
t = T("question-interrupted", sid(31))
t.bookkeeping()
t.user("Pick a database")
t.assistant({"type": "text", "text": "One question."})
t.tool_use("AskUserQuestion", {"questions": [Q_DB]})
t.user([{"type": "text", "text": "[Request interrupted by user for tool use]"}])
t.write()

# a question with no options cannot be answered by lab
t = T("question-unanswerable", sid(32))
t.user("Ask me something open")
t.tool_use("AskUserQuestion", {"questions": [{"question": "What should the service be called?", "header": "Name", "multiSelect": False, "options": []}]}, newmsg=True)
t.write()
