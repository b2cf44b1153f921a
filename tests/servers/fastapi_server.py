#!/usr/bin/env python3
"""An independent OpenAI-compatible streaming server for ServeBench's integration tests.

It shares no code with the built-in simulator (core/sim), so a test that measures the client
against it checks ServeBench against a second implementation: FastAPI + uvicorn, the stack vLLM
itself serves with, streaming through Starlette's StreamingResponse.

Endpoints: POST /v1/completions, POST /v1/chat/completions (SSE when "stream": true, with
vLLM-shaped chunks, a usage chunk when stream_options.include_usage, and data: [DONE]; a plain
JSON answer otherwise), GET /v1/models, GET /health, GET /metrics (vllm:num_requests_running; with
--prefix-cache also vllm:prefix_cache_queries_total and _hits_total, and usage carries
prompt_tokens_details.cached_tokens), POST /reset_prefix_cache (empties the prefix cache; absent
with --no-reset, as in vLLM without VLLM_SERVER_DEV_MODE).

Every response has exactly max_tokens (chat: max_completion_tokens, else max_tokens) tokens, one
per chunk. With --log, one JSON line per finished request is appended to the file:
  {"request_id", "path", "stream", "t_accept_ns", "chunk_times_ns": [...], "completion_tokens",
   "prompt_tokens"}
where every chunk time is time.clock_gettime_ns(CLOCK_MONOTONIC) read right before the chunk is
yielded to the server - the clock ServeBench's client reads too. A streamed request's line also
has "cancelled" (true when the client closed the connection before the stream ended; the chunks
listed are those sent until then) and "t_end_ns" (when the server was done with it: the stream
ended, or the disconnect was noticed); vllm:num_requests_running counts a stream until then.

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
    from fastapi.responses import JSONResponse, Response, StreamingResponse
except ImportError:
    # A pyenv or virtualenv python may shadow Debian's, which has python3-fastapi/uvicorn.
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

WORDS = ["the", "quick", "server", "streams", "tokens", "to", "a", "client", "that", "measures",
         "every", "chunk", "it", "receives", "caf\u00e9", "over", "time"]


PREFIX_BLOCK = 16


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


class TrackedStream(StreamingResponse):
    """A StreamingResponse that calls on_start() and on_end(cancelled) around the whole response.
    Starlette 0.26 cancels the streaming task when the client disconnects (http.disconnect); the
    generator may then be left suspended at a yield and closed only when it is collected, so the
    end is taken here, where it is certain. cancelled: the generator never reached its end."""

    def __init__(self, content, done: dict, on_start, on_end, **kwargs):
        super().__init__(content, **kwargs)
        self.done = done
        self.on_start = on_start
        self.on_end = on_end

    async def __call__(self, scope, receive, send):
        self.on_start()
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.on_end(not self.done["complete"])


def build_app(args) -> FastAPI:
    app = FastAPI()
    log_file = open(args.log, "a", encoding="utf-8") if args.log else None

    def write_log(entry: dict) -> None:
        if log_file is not None:
            log_file.write(json.dumps(entry) + "\n")
            log_file.flush()

    # The engine's state that /metrics shows: running streams and, with --prefix-cache, a prefix
    # cache of chained 16-word block hashes (vLLM's scheme in miniature: the longest run of
    # leading blocks seen before is "cached"), with vLLM v1's counters in tokens.
    state = {"running": 0, "queries": 0, "hits": 0, "blocks": set()}

    def prefix_lookup(words: list) -> int:
        if not args.prefix_cache:
            return -1
        keys, key = [], ""
        for start in range(0, len(words) - len(words) % PREFIX_BLOCK, PREFIX_BLOCK):
            key = str(hash((key, tuple(words[start:start + PREFIX_BLOCK]))))
            keys.append(key)
        cached = 0
        for k in keys:
            if k not in state["blocks"]:
                break
            cached += PREFIX_BLOCK
        state["blocks"].update(keys)
        state["queries"] += len(words)
        state["hits"] += cached
        return cached

    @app.get("/metrics")
    async def metrics():
        lines = ["# HELP vllm:num_requests_running Number of requests in model execution batches.",
                 "# TYPE vllm:num_requests_running gauge",
                 f'vllm:num_requests_running{{model_name="{args.model}"}} {state["running"]}',
                 "# HELP vllm:num_requests_waiting Number of requests waiting to be processed.",
                 "# TYPE vllm:num_requests_waiting gauge",
                 f'vllm:num_requests_waiting{{model_name="{args.model}"}} 0']
        if args.prefix_cache:
            lines += ["# HELP vllm:prefix_cache_queries_total Prefix cache queries, in terms of number of queried tokens.",
                      "# TYPE vllm:prefix_cache_queries_total counter",
                      f'vllm:prefix_cache_queries_total{{model_name="{args.model}"}} {state["queries"]}',
                      "# HELP vllm:prefix_cache_hits_total Prefix cache hits, in terms of number of cached tokens.",
                      "# TYPE vllm:prefix_cache_hits_total counter",
                      f'vllm:prefix_cache_hits_total{{model_name="{args.model}"}} {state["hits"]}']
        return Response("\n".join(lines) + "\n", media_type="text/plain; version=0.0.4; charset=utf-8")

    if not args.no_reset:
        @app.post("/reset_prefix_cache")
        async def reset_prefix_cache():
            # vLLM (VLLM_SERVER_DEV_MODE=1) answers 200 with an empty body.
            state["blocks"].clear()
            return Response(status_code=200)

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
        prompt_words = prompt_text(body, chat).split()
        prompt_tokens = len(prompt_words)
        cached_tokens = prefix_lookup(prompt_words)
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
        if cached_tokens >= 0:
            usage["prompt_tokens_details"] = {"cached_tokens": cached_tokens}
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

        times = []
        done = {"complete": False}

        def stream_started() -> None:
            state["running"] += 1

        def stream_ended(cancelled: bool) -> None:
            state["running"] -= 1
            write_log({"request_id": request_id, "path": path, "stream": True, "t_accept_ns": t_accept, "t_arrival_ns": t_arrival,
                       "chunk_times_ns": times, "completion_tokens": len(times),
                       "prompt_tokens": prompt_tokens, "cached_tokens": cached_tokens,
                       "cancelled": cancelled, "t_end_ns": now_ns()})

        async def events():
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
            # Resumed after the last chunk went to the server: the stream is complete.
            done["complete"] = True

        return TrackedStream(events(), done, stream_started, stream_ended, media_type="text/event-stream",
                             headers=headers)

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
    ap.add_argument("--prefix-cache", action="store_true",
                    help="model a prefix cache of 16-word blocks; /metrics exports vLLM's prefix-cache counters")
    ap.add_argument("--no-reset", action="store_true",
                    help="serve no POST /reset_prefix_cache (404), as vLLM without VLLM_SERVER_DEV_MODE")
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
