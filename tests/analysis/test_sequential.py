"""The sequential method and the fixed intervals, by simulation on synthetic paired streams with a known truth."""
import numpy as np
import pytest

from balance.analysis.studies.sequential import (Moments, SequentialTest, cs_bounds, decide, fixed_bounds,
                                        parse_question)


def _resolve_two(metric, side):
    """x = (a, b): win(A) is column 0, win(B) column 1."""
    if metric != "win_rate":
        raise ValueError(metric)
    return [np.array([1.0, 0.0]) if side == "A" else np.array([0.0, 1.0])]


def test_parse_question_terms_and_margin():
    q = parse_question("win_rate(B) - win_rate(A) > 0.01")
    assert q.op == ">"
    assert [(t.coef, t.metric, t.side) for t in q.terms] == [(1.0, "win_rate", "B"), (-1.0, "win_rate", "A")]
    assert q.constant == pytest.approx(-0.01)
    q = parse_question("seat_spread(B) <= 0.5*seat_spread(A) + 0.02")
    assert q.op == "<=" and q.terms[1].coef == -0.5 and q.constant == pytest.approx(-0.02)
    assert parse_question("share[amulet](B) < share[amulet](A)").terms[0].metric == "share[amulet]"


@pytest.mark.parametrize("bad", ["win_rate(B)", "win_rate(B) < ", "0 < 1", "win rate(B) > 0", "x(B) < y(A) < 1"])
def test_parse_question_refuses(bad):
    with pytest.raises(ValueError):
        parse_question(bad)


def test_decide_each_operator():
    assert decide(0.1, 0.2, ">") == "yes" and decide(-0.2, -0.1, ">") == "no" and decide(-0.1, 0.1, ">") is None
    assert decide(-0.2, -0.1, "<") == "yes" and decide(0.1, 0.2, "<") == "no"
    assert decide(0.0, 0.1, ">=") == "yes" and decide(0.0, 0.1, ">") is None


def test_moments_contrast_is_the_sample_mean_and_variance():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(500, 3))
    m = Moments.empty(3)
    m.add(x[:200]); m.add(x[200:])
    c = np.array([[1.0, -1.0, 0.0], [0.0, 0.5, 2.0]])
    mean, var = m.contrast(c)
    d = x @ c.T
    assert mean == pytest.approx(d.mean(axis=0)) and var == pytest.approx(d.var(axis=0, ddof=1))


def _paired_wins(rng, g, p_a, p_b, rho_flip):
    """Paired Bernoulli games: B copies A's outcome except in a fraction rho_flip of games, where it is redrawn."""
    a = rng.random(g) < p_a
    b = np.where(rng.random(g) < rho_flip, rng.random(g) < p_b, a)
    return np.column_stack([a, b]).astype(np.float64)


def test_sequential_false_positive_rate_stays_below_alpha():
    """A/A experiments (the same true win rate, B a paired redraw of A) looked at after every chunk up to 40,000
    games: "B wins more" is declared in at most alpha of them (plus Monte Carlo slack)."""
    alpha, experiments, chunk, looks = 0.05, 400, 1_000, 40
    q = parse_question("win_rate(B) - win_rate(A) > 0")
    false = 0
    for seed in range(experiments):
        rng = np.random.default_rng(seed)
        test = SequentialTest(q, _resolve_two, alpha=alpha)
        m = Moments.empty(2)
        for _ in range(looks):
            m.add(_paired_wins(rng, chunk, 0.4, 0.4, 0.3))
            look = test.look(m)
            if look.decision is not None:
                false += look.decision == "yes"
                break
    # the bound is one-sided inside a two-sided alpha; 3 binomial standard errors of slack
    assert false / experiments <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / experiments)


def test_sequential_decides_a_real_difference_and_is_right():
    q = parse_question("win_rate(B) - win_rate(A) > 0.01")
    rng = np.random.default_rng(5)
    test = SequentialTest(q, _resolve_two)
    m = Moments.empty(2)
    for _ in range(200):
        m.add(_paired_wins(rng, 1_000, 0.40, 0.46, 0.3))      # true difference 0.3 * 0.06 = 0.018
        look = test.look(m)
        if look.decision:
            break
    assert look.decision == "yes" and look.lo > 0 and look.n < 200_000


def test_fixed_intervals_cover_the_true_difference_about_95_percent():
    rng = np.random.default_rng(11)
    truth = 0.3 * (0.45 - 0.40)
    hits, reps = 0, 1_000
    for _ in range(reps):
        x = _paired_wins(rng, 2_000, 0.40, 0.45, 0.3)
        m = Moments.empty(2)
        m.add(x)
        mean, var = m.contrast(np.array([-1.0, 1.0]))
        lo, hi = fixed_bounds(mean, var, m.n, 0.95)
        hits += bool(lo[0] <= truth <= hi[0])
    assert 0.93 <= hits / reps <= 0.97


def test_confidence_sequence_is_wider_than_the_fixed_interval():
    lo, hi = cs_bounds(np.array([0.0]), np.array([1.0]), 10_000, 0.05)
    flo, fhi = fixed_bounds(np.array([0.0]), np.array([1.0]), 10_000, 0.95)
    assert hi[0] > fhi[0] > 0


def test_spread_question_takes_the_maximum_over_seat_pairs():
    """Three seats in A (cols 0-2) and B (cols 3-5); seat spread as max over ordered pairs of e_i - e_j."""
    def resolve(metric, side):
        off = 0 if side == "A" else 3
        vecs = []
        for i in range(3):
            for j in range(3):
                if i != j:
                    v = np.zeros(6); v[off + i] = 1; v[off + j] = -1
                    vecs.append(v)
        return vecs
    rng = np.random.default_rng(3)
    g = 20_000
    seat_a = rng.choice(3, size=g, p=[0.4, 0.3, 0.3])
    seat_b = np.where(rng.random(g) < 0.5, rng.choice(3, size=g), seat_a)    # B: half the games redrawn evenly
    x = np.zeros((g, 6)); x[np.arange(g), seat_a] = 1; x[np.arange(g), 3 + seat_b] = 1
    m = Moments.empty(6); m.add(x)
    look = SequentialTest(parse_question("seat_spread(B) < seat_spread(A)"), resolve).look(m)
    wa = x[:, :3].mean(0); wb = x[:, 3:].mean(0)
    assert look.estimate == pytest.approx((wb.max() - wb.min()) - (wa.max() - wa.min()))
    assert look.decision == "yes"
