#!/usr/bin/env python3
"""Writes the seed inputs of the response fuzz target (tests/fuzz/responsefuzz.h) into seeds/.

Each seed is one byte of options (bit 0: chat flavour; bits 1-7: how the response is cut into
reads) followed by a raw HTTP response. The bodies are the recorded streams in
tests/data/streams/ (see the README there for where they come from), framed every way the
client reads them: chunked with one event per chunk, chunked in odd sizes, Content-Length,
until close, after a 100 Continue, plus a few malformed heads and framings.

Run from this folder: python3 make_seeds.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
STREAMS = os.path.join(HERE, "..", "streams")
OUT = os.path.join(HERE, "seeds")


def chunked(body, size=None):
    out = b""
    if size is None:
        parts = [p + b"\n\n" for p in body.split(b"\n\n") if p]
    else:
        parts = [body[i:i + size] for i in range(0, len(body), size)]
    for p in parts:
        out += b"%x\r\n" % len(p) + p + b"\r\n"
    return out + b"0\r\n\r\n"


HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"


def responses(body):
    yield "chunked", HEAD + b"transfer-encoding: chunked\r\n\r\n" + chunked(body)
    yield "chunked7", HEAD + b"transfer-encoding: chunked\r\n\r\n" + chunked(body, 7)
    yield "length", HEAD + b"content-length: %d\r\n\r\n" % len(body) + body
    yield "close", HEAD + b"connection: close\r\n\r\n" + body
    yield "continue", (b"HTTP/1.1 100 Continue\r\n\r\n" + HEAD +
                       b"transfer-encoding: chunked\r\n\r\n" + chunked(body))


def main():
    os.makedirs(OUT, exist_ok=True)
    n = 0
    for name in sorted(os.listdir(STREAMS)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(STREAMS, name), "rb") as f:
            body = f.read()
        chat = 1 if "chat" in name else 0
        for kind, response in responses(body):
            for seed in (3 << 1,):
                path = os.path.join(OUT, "%s-%s-%d" % (name[:-4], kind, seed >> 1))
                with open(path, "wb") as f:
                    f.write(bytes([seed | chat]) + response)
                n += 1
    extra = {
        "head-bare-lf": b"HTTP/1.1 200 OK\ntransfer-encoding: chunked\n\n5\ndata:\n0\n\n",
        "chunk-extension-trailer": (HEAD + b"transfer-encoding: chunked\r\n\r\n"
                                    b"2f;ext=1\r\ndata: {\"choices\":[{\"text\":\"hi\"}]}\n\n\r\n"
                                    b"0\r\nx-trailer: 1\r\n\r\n"),
        "garbage-size": HEAD + b"transfer-encoding: chunked\r\n\r\nzz\r\ndata: x\n\n\r\n",
        "huge-size": HEAD + b"transfer-encoding: chunked\r\n\r\nfffffffffffffff\r\ndata: ",
        "two-lengths": HEAD + b"content-length: 3\r\ncontent-length: 4\r\n\r\nabcd",
        "status-garbage": b"HTTP/1.1 2x0 OK\r\n\r\n",
        "error-json": (b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 35\r\n\r\n"
                       b"{\"error\":{\"message\":\"engine dead\"}}"),
    }
    for name, response in extra.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(bytes([5 << 1]) + response)
        n += 1
    print("wrote %d seeds to %s" % (n, OUT))


if __name__ == "__main__":
    main()
