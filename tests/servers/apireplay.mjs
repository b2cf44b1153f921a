// An independent test server for the OpenAI Responses API and Anthropic's Messages API: it
// replays recorded event sequences (tests/data/apis/*.sse, taken from the official SDKs' own test
// fixtures) as they are, and checks each request the way those APIs do. It shares no code with
// ServeBench (plain Node.js, no packages), so a run against it checks ServeBench's request and
// parsing against what the APIs' own SDK fixtures say.
//
//   node apireplay.mjs <fixture dir> <api key> [--gap-ms N]
//
// Prints "listening on <port>" once it listens on 127.0.0.1 (port chosen by the system).
//   GET  /v1/models     a list naming every fixture file (the model picks the sequence)
//   POST /v1/responses  checks Authorization: Bearer <key> and a streamed body with input;
//   POST /v1/messages   checks x-api-key: <key>, anthropic-version, no Authorization, and a
//                       streamed body with model, max_tokens and messages (Anthropic's
//                       required fields); then replays the fixture the body's model names, one
//                       SSE block per write, N ms apart (default 3). A model "status:<code>"
//                       answers with that HTTP status and Anthropic's overloaded error body.
//   GET  /requests      every POST seen: path, headers, body (for the test to inspect)
// A failed check answers 400 or 401 with an error body in the API's own shape.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const args = process.argv.slice(2);
const [dir, key] = args;
const gapAt = args.indexOf("--gap-ms");
const gapMs = gapAt >= 0 ? Number(args[gapAt + 1]) : 3;
const seen = [];

function fail(res, api, status, message) {
  const body =
    api === "messages"
      ? { type: "error", error: { type: status === 401 ? "authentication_error" : "invalid_request_error", message } }
      : { error: { message, type: "invalid_request_error", param: null, code: null } };
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function check(api, headers, body) {
  if (api === "messages") {
    if (headers["x-api-key"] !== key) return [401, "invalid x-api-key"];
    if (!headers["anthropic-version"]) return [400, "anthropic-version: header is required"];
    if (headers["authorization"] !== undefined) return [400, "unexpected Authorization header"];
    if (typeof body.model !== "string") return [400, "model: Field required"];
    if (!Number.isInteger(body.max_tokens)) return [400, "max_tokens: Field required"];
    if (!Array.isArray(body.messages) || body.messages.length === 0) return [400, "messages: Field required"];
    if (body.messages.some((m) => m.role === "system")) return [400, "messages: system is a top-level field"];
  } else {
    if (headers["authorization"] !== `Bearer ${key}`) return [401, "Incorrect API key provided"];
    if (typeof body.input !== "string" && !Array.isArray(body.input)) return [400, "Missing required parameter: 'input'."];
    if (body.max_output_tokens !== undefined && !Number.isInteger(body.max_output_tokens))
      return [400, "Invalid 'max_output_tokens'"];
  }
  if (body.stream !== true) return [400, "this server only streams"];
  return null;
}

function replay(res, file) {
  const text = fs.readFileSync(path.join(dir, path.basename(file)), "utf8");
  // One write per SSE block (its blank line kept), so each event arrives on its own.
  const blocks = text.split(/(?<=\n\n)/);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let i = 0;
  const next = () => {
    if (i >= blocks.length) return res.end();
    res.write(blocks[i++]);
    setTimeout(next, gapMs);
  };
  next();
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://localhost");
  let raw = "";
  req.setEncoding("utf8");
  req.on("data", (d) => (raw += d));
  req.on("end", () => {
    if (req.method === "GET" && url.pathname === "/v1/models") {
      const data = fs.readdirSync(dir).filter((f) => f.endsWith(".sse")).map((id) => ({ id, object: "model" }));
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ object: "list", data }));
    }
    if (req.method === "GET" && url.pathname === "/requests") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(seen));
    }
    const api = url.pathname === "/v1/messages" ? "messages" : url.pathname === "/v1/responses" ? "responses" : null;
    if (req.method !== "POST" || !api) {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: `no route for ${url.pathname}` } }));
    }
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      return fail(res, api, 400, "invalid JSON body");
    }
    seen.push({ path: url.pathname, headers: req.headers, body });
    const problem = check(api, req.headers, body);
    if (problem) return fail(res, api, problem[0], problem[1]);
    const model = String(body.model);
    if (model.startsWith("status:")) {
      // Anthropic's overloaded answer (its SDK's tests/streaming.test.ts error body).
      res.writeHead(Number(model.slice(7)), { "content-type": "application/json" });
      return res.end(JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }));
    }
    if (!fs.existsSync(path.join(dir, path.basename(model)))) return fail(res, api, 404, `no fixture ${model}`);
    replay(res, model);
  });
});

server.listen(0, "127.0.0.1", () => {
  console.log(`listening on ${server.address().port}`);
});
