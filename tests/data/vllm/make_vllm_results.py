#!/usr/bin/env python3
"""Writes two `vllm bench serve --save-result` files of one synthetic run, with the key names and
units of vllm/benchmarks/serve.py (vLLM 0.10/0.11): seconds in ttfts/itls, milliseconds in the
statistics, request_rate "inf" or a number. The statistics are computed the way vLLM's
calculate_metrics() does (np.mean / np.std / np.median / np.percentile with linear interpolation),
re-implemented here so the script needs no numpy.

  vllm-serve-detailed.json  --save-result --save-detailed (per-request arrays kept)
  vllm-serve-plain.json     --save-result (arrays removed, as vLLM does without --save-detailed)
"""
import json
import math
import random


def mean(x):
    return sum(x) / len(x) if x else 0.0


def std(x):  # numpy ddof=0
    if not x:
        return 0.0
    m = mean(x)
    return math.sqrt(sum((v - m) ** 2 for v in x) / len(x))


def percentile(x, p):  # numpy 'linear'
    if not x:
        return 0.0
    s = sorted(x)
    rank = p / 100 * (len(s) - 1)
    lo = math.floor(rank)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (rank - lo)


rng = random.Random(20240501)
n = 40
input_lens, output_lens, ttfts, itls, texts, errors = [], [], [], [], [], []
latencies = []
for i in range(n):
    prompt_len = rng.randint(180, 900)
    input_lens.append(prompt_len)
    if i in (7, 23):  # two failures, as aiohttp reports them
        output_lens.append(0)
        ttfts.append(0.0)
        itls.append([])
        texts.append("")
        errors.append("Internal Server Error" if i == 7 else
                      "Traceback (most recent call last):\n  ...\naiohttp.client_exceptions."
                      "ServerDisconnectedError: Server disconnected")
        latencies.append(0.0)
        continue
    out = rng.randint(40, 160)
    ttft = 0.020 + rng.random() * 0.180 + prompt_len * 0.00004
    gaps = [0.008 + rng.random() * 0.012 for _ in range(out - 1)]
    output_lens.append(out)
    ttfts.append(ttft)
    itls.append(gaps)
    texts.append("tok " * out)
    errors.append("")
    latencies.append(ttft + sum(gaps))

duration = 4.2371
ok = [i for i in range(n) if not errors[i]]
completed = len(ok)
total_input = sum(input_lens[i] for i in ok)
total_output = sum(output_lens)
s_ttft = [ttfts[i] for i in ok]
s_e2el = [latencies[i] for i in ok]
s_tpot = [(latencies[i] - ttfts[i]) / (output_lens[i] - 1) for i in ok if output_lens[i] > 1]
s_itl = [g for i in ok for g in itls[i]]
percentiles = [50.0, 90.0, 99.0]

result = {
    "date": "20240501-101500",
    "endpoint_type": "openai-chat",
    "backend": "openai-chat",
    "label": None,
    "model_id": "meta-llama/Llama-3.1-8B-Instruct",
    "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct",
    "num_prompts": n,
    "gpu": "H100",  # --metadata gpu=H100
    "request_rate": 10.0,
    "burstiness": 1.0,
    "max_concurrency": 16,
    "duration": duration,
    "completed": completed,
    "failed": n - completed,
    "total_input_tokens": total_input,
    "total_output_tokens": total_output,
    "request_throughput": completed / duration,
    "request_goodput": None,
    "output_throughput": total_output / duration,
    "total_token_throughput": (total_input + total_output) / duration,
    "input_lens": input_lens,
    "output_lens": output_lens,
    "ttfts": ttfts,
    "itls": itls,
    "generated_texts": texts,
    "errors": errors,
    "max_output_tokens_per_s": 1234.0,
    "max_concurrent_requests": 16,
}
for name, xs in (("ttft", s_ttft), ("tpot", s_tpot), ("itl", s_itl), ("e2el", s_e2el)):
    result[f"mean_{name}_ms"] = mean(xs) * 1000
    result[f"median_{name}_ms"] = percentile(xs, 50) * 1000
    result[f"std_{name}_ms"] = std(xs) * 1000
    for p in percentiles:
        word = str(int(p)) if int(p) == p else str(p)
        result[f"p{word}_{name}_ms"] = percentile(xs, p) * 1000

with open("vllm-serve-detailed.json", "w", encoding="utf-8") as f:
    json.dump(result, f)
plain = {k: v for k, v in result.items()
         if k not in ("input_lens", "output_lens", "ttfts", "itls", "generated_texts", "errors")}
with open("vllm-serve-plain.json", "w", encoding="utf-8") as f:
    json.dump(plain, f)
