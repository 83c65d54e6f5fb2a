"""The reveal is a fair bag (a script, not a test): Keepers' Relics' deferred chance
(MODULES.md M-KEEP-3) checked by a chi-square test at the 1% level.

Each trial puts every token of the data file face down (4 Icons, 4 Scrolls, 4
Chalices), then reveals a seeded number of them (1 to 11), one by one in a seeded
random order, through the engine's
``reveal`` decision, each outcome drawn by a seeded generator with the decision's own
probabilities. Two tests, each at the 1% level:

* **M-KEEP-3's exact probabilities.** The observed values of every reveal against the
  expected counts, the sum over all reveals of the odds M-KEEP-3 gives at that moment
  (worked out here from the values seen, apart from the engine's code).
* **A shuffled bag.** The n-th token of a type revealed turns up each value as often
  as the n-th token drawn from a shuffled bag: 1/4, 1/4, 1/2 for every n (exchange-
  ability, which is what "nobody can know a face-down value" means). One test for each n.

    python benchmarks/keepers_reveal.py                 # 100,000 reveals
    python benchmarks/keepers_reveal.py --reveals 20000 --seed 7

It prints each test's chi-square, degrees of freedom and p-value, and exits with 1 if
any test rejects at the 1% level.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from reliquary._engine_build import engine_build
from reliquary.content import default_content
from reliquary.engine import Builder, Content, State
from reliquary.engine.modules.keepers import DATA, Token, kstate

LEVEL = 0.01


def chi_square(observed: list[float], expected: list[float]) -> tuple[float, int, float]:
    """Pearson's chi-square, its degrees of freedom and p-value (scipy.stats)."""
    from scipy import stats

    total_o, total_e = sum(observed), sum(expected)
    expected = [e * total_o / total_e for e in expected]
    stat, p = stats.chisquare(observed, expected)
    return float(stat), len(observed) - 1, float(p)


def fresh(content: Content) -> State:
    """A position with every token face down on its own square and the box empty."""
    s = Builder(content, 12, modules=("keepers",)).hero(0, "a1").hero(1, "l12").build()
    st = kstate(s)
    sq = 24
    for kind, t in enumerate(DATA.relic_type):
        for _ in t.values:
            st.tokens.append(Token(kind, 0, sq))
            st.box[kind] -= 1
            sq += 1
    return s


def exact_odds(seen: list[int], values: tuple[int, ...]) -> dict[int, float]:
    """M-KEEP-3 from first principles: the values not yet seen, with multiplicity."""
    left = list(values)
    for v in seen:
        left.remove(v)
    return {v: left.count(v) / len(left) for v in set(left)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reveals", type=int, default=100_000,
                        help="reveals in all (default 100,000)")
    parser.add_argument("--seed", type=int, default=1, help="the first trial's seed")
    args = parser.parse_args(argv)
    content = default_content()
    base = fresh(content)
    tokens = len(kstate(base).tokens)
    values = sorted({v for t in DATA.relic_type for v in t.values})
    observed: Counter[int] = Counter()
    expected: dict[int, float] = dict.fromkeys(values, 0.0)
    longest = max(len(t.values) for t in DATA.relic_type)
    by_order: list[Counter[int]] = [Counter() for _ in range(longest)]
    bag_order: list[dict[int, float]] = [dict.fromkeys(values, 0.0) for _ in range(longest)]
    done = trial = 0
    start = time.perf_counter()
    print(f"keepers reveal: {args.reveals:,} seeded reveals ({engine_build()} engine)",
          flush=True)
    while done < args.reveals:
        rng = random.Random(args.seed + trial)
        trial += 1
        s = base.clone()
        st = kstate(s)
        order = list(range(tokens))
        rng.shuffle(order)
        # Part of the tokens only (a seeded number of them, as in a game): with all of
        # them revealed, the totals of a trial would be fixed (3, 3 and 6).
        order = order[:rng.randint(1, tokens - 1)]
        seen: dict[int, list[int]] = {k: [] for k in range(len(DATA.relic_type))}
        for i in order[:args.reveals - done]:
            kind = st.tokens[i].kind
            s.stack.append(("reveal", i))  # as DELVE or Desecration asks for it
            outcomes = s.chance_outcomes()
            option = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            s.apply(option)
            value = st.tokens[i].value
            for v, p in exact_odds(seen[kind], DATA.relic_type[kind].values).items():
                expected[v] += p
            observed[value] += 1
            by_order[len(seen[kind])][value] += 1
            bag = DATA.relic_type[kind].values  # the bag's marginal: the same at every draw
            for v in set(bag):
                bag_order[len(seen[kind])][v] += bag.count(v) / len(bag)
            seen[kind].append(value)
            done += 1
    elapsed = time.perf_counter() - start
    print(f"{done:,} reveals in {trial:,} trials, {elapsed:.1f} s "
          f"({done / elapsed:,.0f} reveals/s)")
    failed = False

    def report(name: str, obs: list[float], exp: list[float]) -> None:
        nonlocal failed
        stat, df, p = chi_square(obs, exp)
        verdict = "pass" if p >= LEVEL else "REJECT"
        failed |= p < LEVEL
        shares = "  ".join(f"{v}: {o / sum(obs):.4f} (exact {e / sum(exp):.4f})"
                           for v, o, e in zip(values, obs, exp, strict=True))
        print(f"{name:<28} chi2 = {stat:7.3f}  df = {df}  p = {p:.4f}  {verdict}  [{shares}]")

    report("M-KEEP-3 exact odds", [observed[v] for v in values],
           [expected[v] for v in values])
    for n, (counts, exp) in enumerate(zip(by_order, bag_order, strict=True), start=1):
        report(f"bag: the {n}. token of a type", [counts[v] for v in values],
               [exp[v] for v in values])
    print(f"level {LEVEL:.0%}: {'every test passes' if not failed else 'a test REJECTS'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
