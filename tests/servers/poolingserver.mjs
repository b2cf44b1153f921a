// An independent test server for embeddings and rerank endpoints: plain Node.js, no packages, no
// code shared with ServeBench. It answers in the shapes the APIs document and checks each
// request the way they do, so a ServeBench run against it checks ServeBench's requests and its
// reading of non-streamed answers against the APIs, not against ServeBench's own simulator.
//
//   node poolingserver.mjs <api key>
//
// Prints "listening on <port>" once it listens on 127.0.0.1 (port chosen by the system).
//   POST /v1/embeddings  OpenAI's API: Authorization: Bearer <key>; "model" a string; "input" a
//                        string or a non-empty list of strings; "encoding_format" float when
//                        given. Answers {"object":"list","data":[{"object":"embedding","index",
//                        "embedding":[4 floats]}],"model","usage":{"prompt_tokens","total_tokens"}}
//                        with one token per whitespace-separated word. Model "short" leaves the
//                        last embedding out (a server that drops an input).
//   POST /v1/rerank      Jina's and vLLM's form: "query" a string, "documents" a non-empty list of
//                        strings, "top_n" at most their number. Answers {"model","usage":
//                        {"total_tokens"},"results":[{"index","relevance_score","document":
//                        {"text"}}]}, top_n of them, highest score first; the tokens are the
//                        query's beside every document plus the documents'.
//   POST /rerank         Cohere's form of the same: {"id","results":[{"index","relevance_score"}],
//                        "meta":{"billed_units":{"search_units":1}}}: no token counts.
//   GET  /requests       every POST seen: path and body
// A failed check answers 400 or 401 with {"error":{"message"}}.
import http from "node:http";

const [key] = process.argv.slice(2);
const seen = [];

const words = (s) => s.split(/\s+/).filter((w) => w.length > 0).length;

function send(res, status, body) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function embeddings(body) {
  if (typeof body.model !== "string") return [400, "model: Field required"];
  const input = body.input;
  const list = typeof input === "string" ? [input] : input;
  if (!Array.isArray(list) || list.length === 0 || list.some((s) => typeof s !== "string"))
    return [400, "'input' must be a string or a non-empty array of strings"];
  if (body.encoding_format !== undefined && body.encoding_format !== "float")
    return [400, "this server answers floats only"];
  const kept = body.model === "short" ? list.slice(0, -1) : list;
  const data = kept.map((s, index) => ({
    object: "embedding",
    index,
    embedding: [words(s), s.length, index, 0.5].map((v) => v / (1 + v)),
  }));
  const tokens = list.reduce((n, s) => n + words(s), 0);
  return [200, { object: "list", data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }];
}

function rerank(body, cohere) {
  if (typeof body.query !== "string" || body.query.length === 0) return [400, "'query' is required"];
  const docs = body.documents;
  if (!Array.isArray(docs) || docs.length === 0 || docs.some((d) => typeof d !== "string"))
    return [400, "'documents' must be a non-empty array of strings"];
  const topN = body.top_n ?? docs.length;
  if (!Number.isInteger(topN) || topN < 1 || topN > docs.length) return [400, "'top_n' out of range"];
  // A score from the words the document shares with the query: deterministic, in (0, 1).
  const q = new Set(body.query.toLowerCase().split(/\s+/));
  const scored = docs.map((d, index) => {
    const w = d.toLowerCase().split(/\s+/);
    const shared = w.filter((x) => q.has(x)).length;
    return { index, relevance_score: (shared + 1) / (w.length + 2), text: d };
  });
  scored.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const top = scored.slice(0, topN);
  if (cohere)
    return [200, {
      id: `rerank-${seen.length}`,
      results: top.map(({ index, relevance_score }) => ({ index, relevance_score })),
      meta: { billed_units: { search_units: 1 } },
    }];
  const tokens = docs.reduce((n, d) => n + words(body.query) + words(d), 0);
  return [200, {
    model: body.model,
    usage: { total_tokens: tokens },
    results: top.map(({ index, relevance_score, text }) => ({ index, relevance_score, document: { text } })),
  }];
}

const server = http.createServer((req, res) => {
  let raw = "";
  req.setEncoding("utf8");
  req.on("data", (d) => (raw += d));
  req.on("end", () => {
    const path = new URL(req.url, "http://localhost").pathname;
    if (req.method === "GET" && path === "/requests") return send(res, 200, seen);
    if (req.method === "GET" && path === "/v1/models")
      return send(res, 200, { object: "list", data: [{ id: "pooling-model", object: "model" }] });
    const routes = { "/v1/embeddings": "embeddings", "/v1/rerank": "rerank", "/rerank": "cohere" };
    const route = routes[path];
    if (req.method !== "POST" || !route) return send(res, 404, { error: { message: `no route for ${path}` } });
    if (req.headers["authorization"] !== `Bearer ${key}`)
      return send(res, 401, { error: { message: "Incorrect API key provided" } });
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      return send(res, 400, { error: { message: "invalid JSON body" } });
    }
    seen.push({ path, body });
    const [status, answer] = route === "embeddings" ? embeddings(body) : rerank(body, route === "cohere");
    if (status !== 200) return send(res, status, { error: { message: answer } });
    send(res, 200, answer);
  });
});

server.listen(0, "127.0.0.1", () => {
  console.log(`listening on ${server.address().port}`);
});
