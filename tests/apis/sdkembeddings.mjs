// One embeddings request through the official openai SDK (client.embeddings.create), as an
// application would make it, for tst_poolingsdk: the SDK parses the answer; this prints what it
// made of it as one JSON line. The response bytes are also written, as received, to <raw file>,
// so the test can give ServeBench the very same answer.
//
//   node sdkembeddings.mjs <dir with node_modules> <base url> <raw file> [--sdk-default] <input>...
//
// --sdk-default leaves encoding_format out, as applications usually do: the SDK then asks for
// base64 and decodes the vectors itself.
//
// Output: {"count" (embeddings), "indices" (their index fields, in order), "dimensions" (floats
// in the first), "finite" (every value a finite number), "usage" (the SDK's usage object),
// "model"}.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const [refDir, base, rawFile, ...rest] = process.argv.slice(2);
const sdkDefault = rest[0] === "--sdk-default";
const inputs = sdkDefault ? rest.slice(1) : rest;
const require = createRequire(path.join(path.resolve(refDir), "package.json"));

async function teeFetch(url, init) {
  const res = await fetch(url, init);
  const bytes = Buffer.from(await res.arrayBuffer());
  fs.writeFileSync(rawFile, bytes);
  return new Response(bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
}

const { default: OpenAI } = require("openai");
const client = new OpenAI({ apiKey: "sk-sdk-test", baseURL: `${base}/v1`, fetch: teeFetch, maxRetries: 0 });
const params = { model: "servebench-sim", input: inputs.length === 1 ? inputs[0] : inputs };
if (!sdkDefault) params.encoding_format = "float";
const answer = await client.embeddings.create(params);
const out = {
  count: answer.data.length,
  indices: answer.data.map((e) => e.index),
  dimensions: answer.data[0]?.embedding.length ?? 0,
  finite: answer.data.every((e) => e.embedding.every((v) => Number.isFinite(v))),
  usage: answer.usage,
  model: answer.model,
};
console.log(JSON.stringify(out));
