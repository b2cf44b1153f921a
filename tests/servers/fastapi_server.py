#!/usr/bin/env python3
"""An independent OpenAI-compatible streaming server for ServeBench's integration tests.

It shares no code with the built-in simulator (core/sim), so a test that measures the client
against it checks ServeBench against a second implementation: FastAPI + uvicorn, the stack vLLM
itself serves with, streaming through Starlette's StreamingResponse.

Endpoints: POST /v1/completions, POST /v1/chat/completions (SSE when "stream": true, with
vLLM-shaped chunks, a usage chunk when stream_options.include_usage, and data: [DONE]; a plain
JSON answer otherwise), GET /v1/models, GET /health.

Every response has exactly max_tokens (chat: max_completion_tokens, else max_tokens) tokens, one
per chunk. With --log, one JSON line per finished request is appended to the file:
  {"request_id", "path", "stream", "t_accept_ns", "chunk_times_ns": [...], "completion_tokens",
   "prompt_tokens"}
where every chunk time is time.clock_gettime_ns(CLOCK_MONOTONIC) read right before the chunk is
yielded to the server - the clock ServeBench's client reads too.

--port 0 binds a free port and prints "LISTENING <port>" on stdout (flushed) once it accepts
connections.
"""

import argparse
import asyncio
import json
import os
import socket
import sys
import time

try:
    import uvicorn
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse, StreamingResponse
except ImportError:
    # A pyenv or virtualenv python may shadow Debian's, which has python3-fastapi/uvicorn.
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

WORDS = ["the", "quick", "server", "streams", "tokens", "to", "a", "client", "that", "measures",
         "every", "chunk", "it", "receives", "caf\u00e9", "over", "time"]


def now_ns() -> int:
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def count_words(text: str) -> int:
    return len(text.split())


def prompt_text(body: dict, chat: bool) -> str:
    if chat:
        parts = []
        for m in body.get("messages") or []:
            c = m.get("content") if isinstance(m, dict) else None
            if isinstance(c, str):
                parts.append(c)
            elif isinstance(c, list):
                parts.extend(p.get("text", "") for p in c if isinstance(p, dict) and p.get("type") == "text")
        return "\n".join(parts)
    p = body.get("prompt", "")
    if isinstance(p, list):
        return "\n".join(x for x in p if isinstance(x, str))
    return p if isinstance(p, str) else ""


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"error": {
        "object": "error", "message": message, "type": "BadRequestError", "param": None, "code": status}})


class StampArrival:
    """Pure ASGI wrapper: stamps each request as soon as uvicorn hands it over, before routing and
    FastAPI's own work, so the logged server time excludes as much of the Python stack as can be
    excluded without patching uvicorn ("t_arrival_ns")."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope.get("type") == "http":
            scope.setdefault("state", {})["t_arrival_ns"] = now_ns()
        await self.app(scope, receive, send)


def build_app(args) -> FastAPI:
    app = FastAPI()
    log_file = open(args.log, "a", encoding="utf-8") if args.log else None

    def write_log(entry: dict) -> None:
        if log_file is not None:
            log_file.write(json.dumps(entry) + "\n")
            log_file.flush()

    @app.get("/health")
    async def health():
        return JSONResponse({})

    @app.get("/v1/models")
    async def models():
        return {"object": "list", "data": [{"id": args.model, "object": "model", "created": int(time.time()),
                                            "owned_by": "fastapi-test-server", "root": args.model,
                                            "parent": None, "max_model_len": 32768}]}

    async def completion(request: Request, chat: bool):
        t_accept = now_ns()
        t_arrival = request.scope.get("state", {}).get("t_arrival_ns", t_accept)
        try:
            body = await request.json()
        except ValueError:
            return error(400, "invalid JSON body")
        if not isinstance(body, dict):
            return error(400, "the body must be a JSON object")
        if chat and not body.get("messages"):
            return error(400, "'messages' is required")
        if not chat and "prompt" not in body:
            return error(400, "'prompt' is required")
        max_tokens = body.get("max_completion_tokens") if chat else None
        if max_tokens is None:
            max_tokens = body.get("max_tokens")
        if max_tokens is None:
            max_tokens = args.default_max_tokens
        if not isinstance(max_tokens, int) or max_tokens < 1:
            return error(400, "max_tokens must be a positive integer")
        prompt_tokens = count_words(prompt_text(body, chat))
        stream = bool(body.get("stream", False))
        include_usage = bool((body.get("stream_options") or {}).get("include_usage", False))
        request_id = request.headers.get("x-request-id", "")
        model = body.get("model") or args.model
        created = int(time.time())
        rid = ("chatcmpl-" if chat else "cmpl-") + (request_id or str(t_accept))
        obj = "chat.completion.chunk" if chat else "text_completion"
        path = request.url.path
        ttft_s = args.ttft_ms / 1000.0
        itl_s = args.itl_ms / 1000.0
        tokens = [" " + WORDS[i % len(WORDS)] for i in range(max_tokens)]
        usage = {"prompt_tokens": prompt_tokens, "total_tokens": prompt_tokens + max_tokens,
                 "completion_tokens": max_tokens}
        headers = {"x-request-id": request_id} if request_id else {}

        def token_chunk(text: str, last: bool) -> dict:
            finish = "length" if last else None
            if chat:
                choice = {"index": 0, "delta": {"content": text}, "logprobs": None, "finish_reason": finish}
            else:
                choice = {"index": 0, "text": text, "logprobs": None, "finish_reason": finish, "stop_reason": None}
            return {"id": rid, "object": obj, "created": created, "model": model, "choices": [choice]}

        if not stream:
            await asyncio.sleep(ttft_s + itl_s * (max_tokens - 1))
            text = "".join(tokens)
            if chat:
                choice = {"index": 0, "message": {"role": "assistant", "content": text}, "logprobs": None,
                          "finish_reason": "length"}
            else:
                choice = {"index": 0, "text": text, "logprobs": None, "finish_reason": "length", "stop_reason": None}
            t = now_ns()
            write_log({"request_id": request_id, "path": path, "stream": False, "t_accept_ns": t_accept, "t_arrival_ns": t_arrival,
                       "chunk_times_ns": [t], "completion_tokens": max_tokens, "prompt_tokens": prompt_tokens})
            return JSONResponse({"id": rid, "object": "chat.completion" if chat else "text_completion",
                                 "created": created, "model": model, "choices": [choice], "usage": usage},
                                headers=headers)

        async def events():
            times = []
            try:
                # Deadlines from one origin, so sleep overshoot does not accumulate into drift.
                origin = time.monotonic() + ttft_s
                for i, text in enumerate(tokens):
                    delay = origin + i * itl_s - time.monotonic()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    payload = ""
                    if chat and i == 0:
                        role = {"id": rid, "object": obj, "created": created, "model": model,
                                "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""},
                                             "logprobs": None, "finish_reason": None}]}
                        payload = "data: " + json.dumps(role) + "\n\n"
                    payload += "data: " + json.dumps(token_chunk(text, i == max_tokens - 1)) + "\n\n"
                    if i == max_tokens - 1:
                        if include_usage:
                            payload += "data: " + json.dumps({"id": rid, "object": obj, "created": created,
                                                              "model": model, "choices": [], "usage": usage}) + "\n\n"
                        payload += "data: [DONE]\n\n"
                    times.append(now_ns())
                    yield payload
            finally:
                write_log({"request_id": request_id, "path": path, "stream": True, "t_accept_ns": t_accept, "t_arrival_ns": t_arrival,
                           "chunk_times_ns": times, "completion_tokens": len(times),
                           "prompt_tokens": prompt_tokens})

        return StreamingResponse(events(), media_type="text/event-stream", headers=headers)

    @app.post("/v1/completions")
    async def completions(request: Request):
        return await completion(request, chat=False)

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request):
        return await completion(request, chat=True)

    return app


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000, help="0 picks a free port and prints LISTENING <port>")
    ap.add_argument("--ttft-ms", type=float, default=50.0)
    ap.add_argument("--itl-ms", type=float, default=10.0)
    ap.add_argument("--model", default="fastapi-sim")
    ap.add_argument("--default-max-tokens", type=int, default=16)
    ap.add_argument("--log", help="append one JSON line per finished request to this file")
    args = ap.parse_args()

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    # Listening before the announcement: a client that connects at once waits in the backlog
    # until uvicorn accepts, rather than being refused.
    sock.listen(2048)
    config = uvicorn.Config(StampArrival(build_app(args)), log_level="warning", access_log=False, lifespan="off",
                            timeout_keep_alive=30)
    server = uvicorn.Server(config)
    print(f"LISTENING {sock.getsockname()[1]}", flush=True)
    server.run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())
