#!/usr/bin/env python3
"""Writes the hand-made rollout fixtures of the Codex fold tests.

Each fixture is a small rollout in the 0.171.0 line shapes (see
../captured for real ones), aimed at one behaviour the captures do not
cover: older lines without provenance metadata, compaction, errors,
rollbacks, other tool kinds, malformed lines. Re-run after editing:

    python3 make_fixtures.py
"""
import json

T = [0]


def ts():
    T[0] += 1
    return "2026-12-01T10:00:%02d.000Z" % T[0]


def line(typ, payload):
    return json.dumps({"timestamp": ts(), "ordinal": T[0], "type": typ, "payload": payload}, separators=(",", ":"))


def meta(sid="0199a000-0000-7000-8000-000000000001"):
    return line("session_meta", {"id": sid, "session_id": sid, "cwd": "/tmp/lab/work", "cli_version": "0.171.0",
                                 "base_instructions": {"text": "You are Codex." * 50}})


def started(mode="default"):
    return line("event_msg", {"type": "task_started", "turn_id": "t", "collaboration_mode_kind": mode})


def complete():
    return line("event_msg", {"type": "task_complete", "turn_id": "t", "last_agent_message": None})


def user(text, provenance="user"):
    p = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
    if provenance:
        p["internal_chat_message_metadata_passthrough"] = {"content_item_metadata": [{"provenance": {"type": provenance}}]}
    return line("response_item", p)


def assistant(text, id="msg_1"):
    return line("response_item", {"type": "message", "role": "assistant", "id": id,
                                  "content": [{"type": "output_text", "text": text, "annotations": []}]})


def developer(text):
    return line("response_item", {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": text}]})


def call(cid, name, args):
    return line("response_item", {"type": "function_call", "name": name, "call_id": cid, "arguments": json.dumps(args)})


def custom(cid, name, inp):
    return line("response_item", {"type": "custom_tool_call", "name": name, "call_id": cid, "input": inp})


def out(cid, output, kind="function_call_output"):
    return line("response_item", {"type": kind, "call_id": cid, "output": output})


def event(**p):
    return line("event_msg", p)


def bookkeeping():
    return [line("world_state", {"full": True, "state": {"x": "y" * 100}}),
            line("turn_context", {"cwd": "/tmp/lab/work", "model": "gpt-5.5"}),
            event(type="token_count", info=None),
            event(type="item_completed", item={"type": "AgentMessage", "content": [{"type": "Text", "text": "dup"}]}),
            line("token_usage_record", {"usage": {}})]


def exec_out(code, text):
    return "Chunk ID: abc\nWall time: 0.1 seconds\nProcess exited with code %d\nOriginal token count: 3\nOutput:\n%s" % (code, text)


Q = {"questions": [
    {"id": "color", "header": "Color", "question": "Which color?", "options": [{"label": "Red", "description": "Warm"}, {"label": "Blue", "description": "Cool"}]},
    {"id": "size", "header": "Size", "question": "Which size?", "options": [{"label": "Small", "description": "S"}, {"label": "Large", "description": "L"}]},
]}

FIXTURES = {
    # Older rollouts carry no provenance: injected context is told by its tags.
    "legacy-context": [
        meta(), started(),
        user("<environment_context>\n  <cwd>/tmp/lab/work</cwd>\n</environment_context>", None),
        user("# AGENTS.md instructions for /tmp/lab/work\n\n<INSTRUCTIONS>be nice</INSTRUCTIONS>", None),
        developer("<permissions instructions>sandboxed</permissions instructions>"),
        user("<b>bold</b> is fine to type", None),
        user("hello there", None),
        assistant("Hi."), complete(),
        user("<turn_aborted>\nThe user interrupted.\n</turn_aborted>", None),
    ],
    # Commands: output after the header, a failing exit code, an abort,
    # write_stdin, a still-running process, an output as content parts.
    "commands": [meta(), started(), user("run things")] + bookkeeping() + [
        call("c1", "exec_command", {"cmd": "echo ok"}), out("c1", exec_out(0, "ok\n")),
        call("c2", "exec_command", {"cmd": "false\nsecond line"}), out("c2", exec_out(1, "")),
        call("c3", "exec_command", {"cmd": "sleep 100"}), out("c3", "Chunk ID: d\nWall time: 10.0 seconds\nProcess running with session ID 7\nOriginal token count: 0\nOutput:\n"),
        call("c4", "write_stdin", {"session_id": 7, "chars": ""}), out("c4", [{"type": "input_text", "text": "part one"}, {"type": "input_text", "text": "part two"}]),
        call("c5", "exec_command", {"cmd": "rm -rf /"}), out("c5", "Wall time: 2.0 seconds\naborted by user"),
        call("c6", "view_image", {"path": "/tmp/lab/work/a.png"}), out("c6", "viewed"),
        call("c7", "mystery_tool", {"alpha": 1, "beta": [2, 3]}),
        line("response_item", {"type": "local_shell_call", "call_id": "c8", "status": "completed", "action": {"type": "exec", "command": ["bash", "-lc", "ls"]}}),
        out("c8", "a.txt\nb.txt"),
        line("response_item", {"type": "web_search_call", "id": "ws1", "status": "completed", "action": {"type": "search", "query": "lab codex"}}),
        out("orphan", "an output whose call was never seen"),
        call("c1", "exec_command", {"cmd": "echo a re-written line"}),
        complete(),
    ],
    # Patches: add, update with move, delete; a failed patch.
    "patches": [meta(), started(), user("edit files"),
        custom("p1", "apply_patch", "*** Begin Patch\n*** Add File: a.txt\n+one\n*** Update File: b.txt\n*** Move to: c.txt\n@@ fn\n-x\n+y\n*** Delete File: d.txt\n*** End Patch\n"),
        out("p1", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\nA a.txt\nM c.txt\nD d.txt\n", "custom_tool_call_output"),
        custom("p2", "apply_patch", "*** Begin Patch\n*** Update File: missing.txt\n@@\n-a\n+b\n*** End Patch\n"),
        out("p2", "apply_patch verification failed: Failed to find expected lines in missing.txt", "custom_tool_call_output"),
        complete()],
    # Questions answered by position when ids are missing, notes only,
    # and an output that is not the answers object.
    "questions": [meta(), started(), user("ask me"),
        call("q1", "request_user_input", Q),
        out("q1", json.dumps({"answers": {"size": {"answers": ["Large"]}, "color": {"answers": ["None of the above", "user_note: teal"]}}})),
        call("q2", "request_user_input", {"questions": [{"question": "No id?", "options": [{"label": "Yes", "description": ""}]}]}),
        out("q2", json.dumps({"answers": {"whatever": {"answers": ["Yes", "user_note: sure"]}}})),
        call("q3", "request_user_input", Q), out("q3", "something went wrong"),
        call("q4", "request_user_input", {"questions": []}),
        complete(),
        user("a prompt dismisses the open question"),
        complete()],
    # A plan outside Plan mode is approved by a Default-mode prompt; an
    # interrupt does not settle a plan; errors and notices.
    "plan-default-and-events": [meta(), started("default"), user("plan it"),
        assistant("Intro.\n\n<proposed_plan>\n# P\n\n- step\n</proposed_plan>\n\nOutro.", id="msg_plan"),
        complete(),
        event(type="warning", message="Heads up"),
        started("default"), user("go on"),
        event(type="stream_error", message="Reconnecting... 1/5"),
        event(type="error", message="unexpected status 500"),
        event(type="context_compacted"),
        line("compacted", {"message": "summary"}),
        event(type="thread_rolled_back", num_turns=1),
        event(type="turn_aborted", reason="replaced")],
    # Lines the fold must skip and count, and skip silently.
    "malformed": [meta(), started(), user("before"),
        '{"timestamp":"2026-12-01T10:00:00Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"torn',
        "not json at all",
        '[1,2,3]',
        '{"timestamp":"x","type":"response_item","payload":{"type":"message","role":"assistant","content":42}}',
        '{"timestamp":"2026-12-01T10:00:00Z","type":"future_kind","payload":{"anything":true}}',
        '{"timestamp":"2026-12-01T10:00:00Z","type":"event_msg","payload":{"type":"some_new_event"}}',
        '',
        '{"type":"response_item","timestamp":"2026-12-01T10:00:59.000Z","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"type first still folds"}]}}',
        assistant("after"), complete()],
}

for name, lines in FIXTURES.items():
    with open(name + ".jsonl", "w") as f:
        f.write("\n".join(lines) + "\n")
