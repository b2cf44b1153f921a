#!/usr/bin/env python3
"""Writes a large ShareGPT-layout file (default 650 MB, the size of the public
ShareGPT_V3_unfiltered_cleaned_split.json) for measuring the loader's time and peak memory.
Never commit its output. Like the public file it is written with ensure_ascii (Chinese and emoji
become \\uXXXX escapes, surrogate pairs included), has multi-turn conversations of a few KB each
and some unusable ones.

Usage: python3 tests/dataset/make_sharegpt_large.py OUT [SIZE_MB]
Then:  /usr/bin/time -v build/<dir>/tests/dataset/dataset_loadbench OUT 1000
"""
import json
import random
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from make_sharegpt_sample import EN_SENT, ZH_SENT, conversation  # noqa: E402


def big_conversation(rng, i):
    c = conversation(rng, i)
    zh = any("\u4e00" <= ch <= "\u9fff" for ch in c["conversations"][0]["value"])
    pool = ZH_SENT if zh else EN_SENT
    for _ in range(rng.randint(1, 8)):  # longer, multi-turn chats like the real data
        c["conversations"].append({"from": "human", "value": rng.choice(pool) + " \U0001F600"})
        c["conversations"].append({"from": "gpt", "value": " ".join(rng.choice(pool) for _ in range(rng.randint(5, 60)))})
    return c


def main():
    out = sys.argv[1]
    target = int(float(sys.argv[2]) * 1024 * 1024) if len(sys.argv) > 2 else 650 * 1024 * 1024
    rng = random.Random(7)
    pool = [json.dumps(big_conversation(rng, i)["conversations"]) for i in range(3000)]
    written = 0
    n = 0
    with open(out, "w", encoding="ascii") as f:
        f.write("[")
        while written < target:
            item = '%s{"id": "big_%07d", "conversations": %s}' % ("," if n else "", n, rng.choice(pool))
            f.write(item)
            written += len(item)
            n += 1
        f.write("]\n")
    print(f"wrote {out}: {n} conversations, {written / 1048576:.0f} MB")


if __name__ == "__main__":
    main()
