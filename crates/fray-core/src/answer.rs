//! Option ids carried as [`ActionId`]s: the engine-kit codec for systems whose questions name
//! their options by id (`"move"`, `"3,4"`, a unit id, `"2"`, `"power:swap-places"`).
//!
//! Most ids encode without the decision that offered them — a square, a unit, a number, a word
//! of the system's menu vocabulary, a power — so answering does not build the decision again;
//! the rest are carried by their place in the decision's list ([`Answer::Nth`]). `"cancel"` is
//! [`ActionId::BACK`].

use crate::decision::{Decision, DecisionOption};
use crate::game::ActionId;
use crate::ruleset::RuleError;

/// The refusal of an option id that the pending decision does not offer, listing those it does.
pub fn not_an_option<'a>(id: &str, kind: &str, offered: impl IntoIterator<Item = &'a str>) -> RuleError {
    let ids: Vec<&str> = offered.into_iter().collect();
    RuleError::malformed(format!("{id:?} is not an option for this {kind} decision; choose one of: {}", ids.join(", ")))
}

/// For a system that builds its pending question as a whole [`Decision`]: the action the seat
/// called `seat` means by option `id` (`encode` gives an option's action from its id and place),
/// or the refusal; `over` says why nothing is pending.
pub fn choose_in(
    d: Option<Decision>,
    seat: &str,
    id: &str,
    over: &str,
    encode: impl FnOnce(&str, usize) -> ActionId,
) -> Result<ActionId, RuleError> {
    let Some(d) = d else { return Err(RuleError::malformed(format!("nothing is pending: {over}"))) };
    if d.seat != seat {
        return Err(RuleError::malformed(format!("the {} seat is asked, not this one", d.seat)));
    }
    match d.options.iter().position(|o| o.id == id) {
        Some(i) => Ok(encode(id, i)),
        None => Err(not_an_option(id, &d.kind, d.options.iter().map(|o| o.id.as_str()))),
    }
}

/// For a system that builds its pending question as a whole [`Decision`]: the option `id`
/// (an action decoded back to its id) stands for, or a placeholder when it names nothing now.
pub fn describe_in(d: Option<Decision>, id: Option<String>, action: ActionId) -> DecisionOption {
    let found = id.and_then(|id| d?.options.into_iter().find(|o| o.id == id));
    found.unwrap_or_else(|| DecisionOption::new(format!("#{}", action.0), "not an option now"))
}

/// What a system tells the codec about the names in a match.
pub trait Names {
    /// The index of the unit called `id`.
    fn unit_index(&self, id: &str) -> Option<u16>;
    /// The id of unit `i`.
    fn unit_id(&self, i: u16) -> Option<&str>;
    /// The index of the power (ability) called `id`, for `"power:ID"` options.
    fn power_index(&self, _id: &str) -> Option<u16> {
        None
    }
    /// The id of power `i`.
    fn power_id(&self, _i: u16) -> Option<&str> {
        None
    }
}

/// How an option id is carried: a tag in the top four bits of the [`ActionId`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The n-th option of the pending decision (ids with no shorter form).
    Nth(u32),
    /// A square, `"x,y"`.
    Square(i32, i32),
    /// A unit, by its id.
    Unit(u16),
    /// A number, `"2"`.
    Number(u32),
    /// A word of the system's vocabulary.
    Word(u16),
    /// `"power:ID"`.
    Power(u16),
    /// `"cancel"`: back out of a half-made choice.
    Back,
}

/// Whether `digits`, which parsed as a number, is how that number prints (no sign, no leading
/// zero): only then does the short form give the same id back.
fn canonical(digits: &str) -> bool {
    digits.bytes().all(|b| b.is_ascii_digit()) && (digits.len() == 1 || !digits.starts_with('0'))
}

const TAG_SHIFT: u32 = 28;
const PAYLOAD: u32 = (1 << TAG_SHIFT) - 1;
const COORD: i32 = 1 << 14;

impl Answer {
    /// The action id.
    pub fn id(self) -> ActionId {
        let (tag, payload) = match self {
            Answer::Back => return ActionId::BACK,
            Answer::Nth(i) => (0, i),
            Answer::Square(x, y) => (1, ((y as u32) << 14) | x as u32),
            Answer::Unit(u) => (2, u as u32),
            Answer::Number(n) => (3, n),
            Answer::Word(w) => (4, w as u32),
            Answer::Power(p) => (5, p as u32),
        };
        ActionId((tag << TAG_SHIFT) | (payload & PAYLOAD))
    }
    /// Reads an action id back.
    pub fn of(a: ActionId) -> Answer {
        if a == ActionId::BACK {
            return Answer::Back;
        }
        let payload = a.0 & PAYLOAD;
        match a.0 >> TAG_SHIFT {
            1 => Answer::Square((payload & 0x3fff) as i32, (payload >> 14) as i32),
            2 => Answer::Unit(payload as u16),
            3 => Answer::Number(payload),
            4 => Answer::Word(payload as u16),
            5 => Answer::Power(payload as u16),
            _ => Answer::Nth(payload),
        }
    }
    /// The short form of option `id`, the `index`-th of its decision.
    pub fn encode(names: &dyn Names, words: &[&str], id: &str, index: usize) -> Answer {
        Self::encode_with(names, |id| words.iter().position(|w| *w == id).map(|w| w as u16), id, index)
    }
    /// [`Answer::encode`], with the words' numbers found by `word` (the position of `id` in the
    /// word list, for a system that indexes its list): the same answer when `word` agrees.
    pub fn encode_with(names: &dyn Names, word: impl Fn(&str) -> Option<u16>, id: &str, index: usize) -> Answer {
        if id == "cancel" {
            return Answer::Back;
        }
        if let Some((xs, ys)) = id.split_once(',')
            && let (Ok(x), Ok(y)) = (xs.parse::<i32>(), ys.parse::<i32>())
            && (0..COORD).contains(&x)
            && (0..COORD).contains(&y)
            && canonical(xs)
            && canonical(ys)
        {
            return Answer::Square(x, y);
        }
        if let Ok(n) = id.parse::<u32>()
            && n <= PAYLOAD
            && canonical(id)
        {
            return Answer::Number(n);
        }
        if let Some(w) = word(id) {
            return Answer::Word(w);
        }
        if let Some(p) = id.strip_prefix("power:")
            && let Some(i) = names.power_index(p)
        {
            return Answer::Power(i);
        }
        if let Some(u) = names.unit_index(id) {
            return Answer::Unit(u);
        }
        Answer::Nth(index as u32)
    }
    /// The option id it stands for; `nth` gives the id of the n-th option of the pending
    /// decision. `None` if it names nothing.
    pub fn decode(
        self,
        names: &dyn Names,
        words: &[&str],
        nth: impl FnOnce(usize) -> Option<String>,
    ) -> Option<String> {
        Some(match self {
            Answer::Back => "cancel".into(),
            Answer::Square(x, y) => {
                // As `format!("{x},{y}")` writes it (both are in 0..2^14), without the
                // formatting machinery: every answer to a move is one of these.
                let mut id = String::with_capacity(11);
                push_digits(&mut id, x as u32);
                id.push(',');
                push_digits(&mut id, y as u32);
                id
            }
            Answer::Unit(u) => names.unit_id(u)?.to_string(),
            Answer::Number(n) => n.to_string(),
            Answer::Word(w) => words.get(w as usize)?.to_string(),
            Answer::Power(p) => {
                let power = names.power_id(p)?;
                let mut id = String::with_capacity(6 + power.len());
                id.push_str("power:");
                id.push_str(power);
                id
            }
            Answer::Nth(i) => nth(i as usize)?,
        })
    }
}

/// Appends `n` in decimal, as `n.to_string()` writes it.
fn push_digits(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let (mut n, mut i) = (n, digits.len());
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| char::from(d)));
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Two;
    impl Names for Two {
        fn unit_index(&self, id: &str) -> Option<u16> {
            ["ada", "bo"].iter().position(|u| *u == id).map(|i| i as u16)
        }
        fn unit_id(&self, i: u16) -> Option<&str> {
            ["ada", "bo"].get(i as usize).copied()
        }
    }

    #[test]
    fn every_kind_of_id_reads_back() {
        let words = ["move", "stay"];
        let ids = ["cancel", "3,4", "12", "move", "bo", "odd:thing", "03,4", "007"];
        let mut seen = std::collections::HashSet::new();
        for (i, id) in ids.iter().enumerate() {
            let a = Answer::encode(&Two, &words, id, i).id();
            assert!(seen.insert(a), "{id} collides");
            let back = Answer::of(a).decode(&Two, &words, |n| ids.get(n).map(|s| s.to_string()));
            assert_eq!(back.as_deref(), Some(*id));
        }
        assert_eq!(Answer::of(Answer::encode(&Two, &words, "3,4", 0).id()), Answer::Square(3, 4));
    }

    #[test]
    fn squares_read_back_as_format_writes_them() {
        let edge = (1 << 14) - 1;
        for (x, y) in [(0, 0), (9, 10), (99, 100), (1234, 5), (edge, edge)] {
            let back = Answer::Square(x, y).decode(&Two, &[], |_| None);
            assert_eq!(back, Some(format!("{x},{y}")));
        }
    }
}
