//! The statistics a report gives: proportions with Wilson score intervals, the difference of
//! two proportions with Newcombe's interval, means and spreads.

use serde::{Deserialize, Serialize};

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Successes over trials.
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// The Wilson score interval of `successes` out of `trials` (successes may be fractional:
/// a draw counts half in a score rate). No trials: rate 0 in [0, 1].
pub fn wilson(successes: f64, trials: f64) -> Rate {
    if trials <= 0.0 {
        return Rate { rate: 0.0, low: 0.0, high: 1.0 };
    }
    let p = (successes / trials).clamp(0.0, 1.0);
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / trials;
    let centre = (p + z2 / (2.0 * trials)) / denom;
    let half = Z95 * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt() / denom;
    Rate { rate: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
}

/// The difference `a - b` of two independent proportions with Newcombe's hybrid score
/// interval (from each one's Wilson interval).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    /// `a.rate - b.rate`.
    pub difference: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Whether the interval leaves out 0.
    pub significant: bool,
}

/// `a - b` with its interval (see [`Difference`]).
pub fn difference(a: Rate, b: Rate) -> Difference {
    let d = a.rate - b.rate;
    let low = d - ((a.rate - a.low).powi(2) + (b.high - b.rate).powi(2)).sqrt();
    let high = d + ((a.high - a.rate).powi(2) + (b.rate - b.low).powi(2)).sqrt();
    Difference { difference: d, low, high, significant: low > 0.0 || high < 0.0 }
}

/// Mean and standard deviation from a count, a sum and a sum of squares.
pub fn mean_sd(n: f64, sum: f64, squares: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 0.0);
    }
    let mean = sum / n;
    let var = if n > 1.0 { ((squares - n * mean * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
    (mean, var.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn wilson_matches_published_values() {
        // 81 successes in 263 trials: Wilson 95% interval [0.2553, 0.3662] (a textbook case).
        let r = wilson(81.0, 263.0);
        assert!(close(r.low, 0.2553) && close(r.high, 0.3662), "{r:?}");
        // All successes: the upper end is 1 and the lower end is below it.
        let r = wilson(10.0, 10.0);
        assert!(close(r.high, 1.0), "{r:?}");
        assert!(close(r.low, 0.7225), "{r:?}");
        assert_eq!(wilson(0.0, 0.0), Rate { rate: 0.0, low: 0.0, high: 1.0 });
    }

    #[test]
    fn newcombe_difference_matches_published_values() {
        // Newcombe (1998), example (a): 56/70 against 48/80 gives 0.2 in [0.0524, 0.3339].
        let d = difference(wilson(56.0, 70.0), wilson(48.0, 80.0));
        assert!(close(d.difference, 0.2) && close(d.low, 0.0524) && close(d.high, 0.3339), "{d:?}");
        assert!(d.significant);
        let same = difference(wilson(50.0, 100.0), wilson(52.0, 100.0));
        assert!(!same.significant);
    }

    #[test]
    fn mean_and_spread() {
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        let (m, sd) = mean_sd(8.0, xs.iter().sum(), xs.iter().map(|x| x * x).sum());
        assert!(close(m, 5.0) && close(sd, 2.1381), "{m} {sd}");
    }
}
