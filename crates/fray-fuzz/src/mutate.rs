//! Seeded mutations for the stable pass: libFuzzer's kinds of byte edits plus the ones that
//! matter for text formats (a number swapped for a boundary value, a word for another word of
//! the corpus, a line duplicated, a file spliced with another).

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Values at the edges of what files hold.
const NUMBERS: [&str; 16] = [
    "0",
    "-1",
    "1",
    "-0",
    "2147483647",
    "-2147483648",
    "4294967295",
    "9223372036854775807",
    "-9223372036854775808",
    "100000",
    "65536",
    "256",
    "1e309",
    "nan",
    "inf",
    "0.5",
];

/// Pieces of syntax and strings that are often special.
const TOKENS: [&str; 16] = [
    "\"\"",
    "[]",
    "{}",
    "\n",
    "=",
    "\"",
    "[",
    "]",
    ",",
    "\n[[unit]]\n",
    "\n[[step]]\n",
    "#",
    "\u{0}",
    "é",
    "\\u0000",
    "'",
];

/// `input` changed one to four times, sometimes spliced with `other`.
pub fn mutate(rng: &mut ChaCha8Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        once(rng, &mut v, other);
    }
    v
}

fn once(rng: &mut ChaCha8Rng, v: &mut Vec<u8>, other: &[u8]) {
    let at = |rng: &mut ChaCha8Rng, len: usize| rng.gen_range(0..=len);
    match rng.gen_range(0..11) {
        0 if !v.is_empty() => {
            let i = rng.gen_range(0..v.len());
            v[i] ^= 1 << rng.gen_range(0..8);
        }
        1 if !v.is_empty() => {
            let i = rng.gen_range(0..v.len());
            v[i] = rng.r#gen();
        }
        2 if !v.is_empty() => {
            let i = rng.gen_range(0..v.len());
            let n = rng.gen_range(1..=16).min(v.len() - i);
            v.drain(i..i + n);
        }
        3 if !v.is_empty() => {
            let i = rng.gen_range(0..v.len());
            let n = rng.gen_range(1..=32).min(v.len() - i);
            let piece = v[i..i + n].to_vec();
            let j = at(rng, v.len());
            v.splice(j..j, piece);
        }
        4 => {
            let t = TOKENS[rng.gen_range(0..TOKENS.len())];
            let j = at(rng, v.len());
            v.splice(j..j, t.bytes());
        }
        5 | 6 => {
            // A number (a run of digits, with its sign) becomes a boundary value.
            let runs = runs(v, |b| b.is_ascii_digit() || b == b'-' || b == b'.');
            if let Some(&(s, e)) = pick(rng, &runs) {
                let n = NUMBERS[rng.gen_range(0..NUMBERS.len())];
                v.splice(s..e, n.bytes());
            }
        }
        7 => {
            // A word becomes a word of the other input (an id, a key, a name).
            let word = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
            let (mine, theirs) = (runs(v, word), runs(other, word));
            if let (Some(&(s, e)), Some(&(os, oe))) = (pick(rng, &mine), pick(rng, &theirs)) {
                v.splice(s..e, other[os..oe].iter().copied());
            }
        }
        8 => {
            // A line is repeated or dropped.
            let lines = runs(v, |b| b != b'\n');
            if let Some(&(s, e)) = pick(rng, &lines) {
                if rng.r#gen() {
                    let line: Vec<u8> = v[s..e].iter().copied().chain([b'\n']).collect();
                    v.splice(s..s, line);
                } else {
                    v.drain(s..e);
                }
            }
        }
        9 if !other.is_empty() => {
            // Splice: this input's head, the other's tail.
            let i = at(rng, v.len());
            let j = rng.gen_range(0..other.len());
            v.truncate(i);
            v.extend_from_slice(&other[j..]);
        }
        _ => {
            let i = at(rng, v.len());
            v.truncate(i);
        }
    }
}

/// The (start, end) of every maximal run of bytes that `keep`.
fn runs(v: &[u8], keep: impl Fn(u8) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, &b) in v.iter().enumerate() {
        match (keep(b), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, v.len()));
    }
    out
}

fn pick<'a, T>(rng: &mut ChaCha8Rng, v: &'a [T]) -> Option<&'a T> {
    (!v.is_empty()).then(|| &v[rng.gen_range(0..v.len())])
}
