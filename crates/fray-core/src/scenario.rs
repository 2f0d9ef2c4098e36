//! Scenario files: the rules-test language (see the shared SCENARIOS.md contract).
//!
//! A system parses its own file shape (map legend, unit fields, inline content) into a
//! [`Loaded`] scenario; this module holds what every system shares: steps, choice values,
//! assertions over the JSON form of the [`crate::View`], and the runner.

use crate::dice::{AnyDice, ScriptedDice};
use crate::game::{Game, Viewer};
use crate::ruleset::RuleError;
use crate::session::{Input, Session};
use serde::Deserialize;
use serde_json::Value as Json;
use std::sync::Arc;

/// One step of a scenario.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step<C> {
    /// A complete command.
    #[serde(default)]
    pub act: Option<C>,
    /// An answer to the pending decision.
    #[serde(default)]
    pub choose: Option<ChoiceValue>,
    /// The step must be refused with this text in the message, and change nothing.
    #[serde(default)]
    pub error: Option<String>,
    /// Assertions that must hold after this step.
    #[serde(default)]
    pub expect: Option<toml::Table>,
}

/// How a scenario writes an answer: a word or unit id, a number, a square, or a table.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum ChoiceValue {
    /// A word, option id or unit id.
    Text(String),
    /// A number (a count of tokens, say).
    Number(i64),
    /// A square `[x, y]`.
    Square([i32; 2]),
}

impl ChoiceValue {
    /// The decision option id this value stands for.
    pub fn option_id(&self) -> String {
        match self {
            ChoiceValue::Text(s) => s.clone(),
            ChoiceValue::Number(n) => n.to_string(),
            ChoiceValue::Square([x, y]) => format!("{x},{y}"),
        }
    }
}

/// The `[dice]` table.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceSpec {
    /// What the dice show, in the order they are rolled.
    #[serde(default)]
    pub rolls: Vec<u32>,
    /// Why some scripted dice are never rolled, for the rare file whose extra dice are unused by
    /// design; without it, a die left unrolled fails the scenario.
    #[serde(default)]
    pub unused: Option<String>,
}

/// A scenario ready to run.
pub struct Loaded<G: Game> {
    /// Title for a person.
    pub title: String,
    /// Rule ids it checks.
    pub rules: Vec<String>,
    /// The state after setup.
    pub state: G::State,
    /// Journal entries written during setup (initiative, say).
    pub setup_journal: Vec<G::Event>,
    /// The dice.
    pub dice: ScriptedDice,
    /// Scripted dice may be left unrolled (`[dice] unused`).
    pub unused_dice_ok: bool,
    /// The steps.
    pub steps: Vec<Step<G::Command>>,
    /// Assertions after the last step.
    pub expect: toml::Table,
}

/// What running a scenario found.
#[derive(Clone, Debug)]
pub struct Report {
    /// Title.
    pub title: String,
    /// Rule ids it checks.
    pub rules: Vec<String>,
    /// The first failure, if any.
    pub failure: Option<String>,
    /// The journal, one line per event.
    pub journal: Vec<String>,
}

impl Report {
    /// Whether every step and assertion held.
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// The session a scenario's setup starts.
pub fn session<G: Game>(game: &Arc<G>, loaded: Loaded<G>) -> (Session<G>, Vec<Step<G::Command>>, toml::Table) {
    let Loaded { state, setup_journal, dice, steps, expect, .. } = loaded;
    (Session::from_state(game.clone(), state, AnyDice::Scripted(dice), setup_journal), steps, expect)
}

/// Runs a scenario to its end or its first failure.
pub fn run<G: Game>(game: &Arc<G>, loaded: Loaded<G>) -> Report {
    let (title, rules, unused_dice_ok) = (loaded.title.clone(), loaded.rules.clone(), loaded.unused_dice_ok);
    let (mut session, steps, expect) = session(game, loaded);
    let failure = run_steps(&mut session, &steps, &expect).err().or_else(|| leftover_dice(&session, unused_dice_ok));
    let journal = session.journal().iter().map(|e| e.to_string()).collect();
    Report { title, rules, failure, journal }
}

/// A failure when scripted dice were never rolled: the file expected rolls that did not happen.
fn leftover_dice<G: Game>(session: &Session<G>, unused_ok: bool) -> Option<String> {
    match &session.dice().inner {
        AnyDice::Scripted(d) if d.remaining() > 0 && !unused_ok => Some(format!(
            "at the end: {} scripted dice were never rolled (roll them, remove them, or give `[dice] unused` with the reason)",
            d.remaining()
        )),
        _ => None,
    }
}

/// The session after a scenario's steps (for `fray view`): a step that fails where the file
/// expects a refusal is passed over; any other failure is an error naming the step.
pub fn play_steps<G: Game>(game: &Arc<G>, loaded: Loaded<G>) -> Result<Session<G>, String> {
    let (mut session, steps, _) = session(game, loaded);
    for (i, step) in steps.iter().enumerate() {
        let input = match (&step.act, &step.choose) {
            (Some(c), _) => Input::Act(c.clone()),
            (None, Some(c)) => Input::Choose(c.option_id()),
            _ => continue,
        };
        if let (Err(e), None) = (apply_input(&mut session, &input), &step.error) {
            return Err(format!("step {}: {e}", i + 1));
        }
    }
    Ok(session)
}

/// Applies one step's input to the session.
pub fn apply_input<G: Game>(session: &mut Session<G>, input: &Input<G::Command>) -> Result<(), RuleError> {
    match input {
        Input::Act(c) => session.act_as_owner(c.clone()).map(|_| ()),
        Input::Choose(id) => session.choose_pending(id).map(|_| ()),
    }
}

/// Tries a refused input on a copy of the state straight through the rules (not through the
/// session's own copy), and reports whether the rules changed the state before refusing.
fn rules_left_state_unchanged<G: Game>(session: &Session<G>, input: &Input<G::Command>) -> bool {
    let game = session.game();
    let before = referee_json(game, session.state());
    let mut state = session.state().clone();
    let mut dice = session.dice().inner.clone();
    let mut sink: Vec<G::Event> = Vec::new();
    let refused = match input {
        Input::Act(c) => match game.command_seat(&state, c) {
            Some(seat) => game.act(&mut state, seat, c, &mut dice, &mut sink).is_err(),
            None => true,
        },
        Input::Choose(id) => {
            let seats = game.node(&state).seats();
            match seats.iter().find_map(|seat| game.parse_choice(&state, seat, id).ok().map(|a| (seat, a))) {
                Some((seat, a)) => game.apply(&mut state, seat, a, &mut dice, &mut sink).is_err(),
                None => true,
            }
        }
    };
    !refused || referee_json(game, &state) == before
}

fn referee_json<G: Game>(game: &G, state: &G::State) -> Json {
    let mut v = serde_json::to_value(game.view(state, Viewer::Referee)).unwrap_or(Json::Null);
    if let Some(o) = v.as_object_mut() {
        o.remove("log");
    }
    v
}

fn run_steps<G: Game>(
    session: &mut Session<G>,
    steps: &[Step<G::Command>],
    expect: &toml::Table,
) -> Result<(), String> {
    for (i, step) in steps.iter().enumerate() {
        let n = i + 1;
        let input = match (&step.act, &step.choose) {
            (Some(c), None) => Some(Input::Act(c.clone())),
            (None, Some(c)) => Some(Input::Choose(c.option_id())),
            (None, None) => None,
            (Some(_), Some(_)) => {
                return Err(format!("step {n}: give either act or choose, not both"));
            }
        };
        if let Some(input) = input {
            let before = view_json(session);
            match (apply_input(session, &input), &step.error) {
                (Ok(()), None) => {}
                (Ok(()), Some(text)) => {
                    return Err(format!("step {n}: expected a refusal mentioning {text:?}, but it was accepted"));
                }
                (Err(e), None) => {
                    let pending = session
                        .pending()
                        .map(|(_, d)| {
                            let ids: Vec<_> = d.options.iter().map(|o| o.id.as_str()).collect();
                            format!(" (pending: {} for {} — {})", d.kind, d.seat, ids.join(" | "))
                        })
                        .unwrap_or_default();
                    return Err(format!("step {n}: refused: {e}{pending}"));
                }
                (Err(e), Some(text)) => {
                    if !e.to_string().to_lowercase().contains(&text.to_lowercase()) {
                        return Err(format!(
                            "step {n}: refused, but the message {:?} does not mention {text:?}",
                            e.to_string()
                        ));
                    }
                    if view_json(session) != before {
                        return Err(format!("step {n}: the refused command changed the state"));
                    }
                    if !rules_left_state_unchanged(session, &input) {
                        return Err(format!("step {n}: the rules changed the state before refusing the input"));
                    }
                }
            }
        } else if step.error.is_some() {
            return Err(format!("step {n}: error needs an act or choose to refuse"));
        }
        if let Some(table) = &step.expect {
            let failures = check(&view_json(session), table);
            if !failures.is_empty() {
                return Err(format!("after step {n}: {}", failures.join("; ")));
            }
        }
    }
    let failures = check(&view_json(session), expect);
    if failures.is_empty() { Ok(()) } else { Err(format!("at the end: {}", failures.join("; "))) }
}

fn view_json<G: Game>(session: &Session<G>) -> Json {
    let mut v = serde_json::to_value(session.view(Viewer::Referee)).unwrap_or(Json::Null);
    if let Some(o) = v.as_object_mut() {
        o.remove("log");
    }
    v
}

/// Looks up a dotted path (`units.bo.hp`, `units.bo.statuses.0`) in a JSON value.
pub fn lookup<'a>(root: &'a Json, path: &str) -> Option<&'a Json> {
    let mut cur = root;
    for part in path.split('.') {
        cur = match cur {
            Json::Object(m) => m.get(part)?,
            Json::Array(a) => a.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn same(a: &Json, b: &Json) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

fn show(v: &Json) -> String {
    v.to_string()
}

/// Checks every assertion of a table against a view; returns one message per failure.
pub fn check(view: &Json, table: &toml::Table) -> Vec<String> {
    let mut out = Vec::new();
    for (path, want) in table {
        let got = lookup(view, path);
        let want_json = serde_json::to_value(want).unwrap_or(Json::Null);
        let mut fail = |msg: String| out.push(format!("{path}: {msg}"));
        if let toml::Value::Table(t) = want {
            if t.len() != 1 {
                fail(format!(
                    "an assertion table holds exactly one of contains, absent, at_least, at_most, len; found {}",
                    t.len()
                ));
                continue;
            }
            let (k, v) = t.iter().next().unwrap();
            let vj = serde_json::to_value(v).unwrap_or(Json::Null);
            match k.as_str() {
                "absent" => {
                    let absent = matches!(got, None | Some(Json::Null));
                    if absent != v.as_bool().unwrap_or(true) {
                        fail(format!("expected absent = {}, found {}", v, got.map(show).unwrap_or("nothing".into())));
                    }
                }
                "contains" => match got {
                    Some(Json::Array(a)) => {
                        if !a.iter().any(|x| same(x, &vj)) {
                            fail(format!("expected a list containing {}, found {}", show(&vj), show(got.unwrap())));
                        }
                    }
                    Some(Json::String(s)) => {
                        if !vj.as_str().is_some_and(|n| s.contains(n)) {
                            fail(format!("expected text containing {}, found {s:?}", show(&vj)));
                        }
                    }
                    Some(other) => fail(format!("contains needs a list or text, found {}", show(other))),
                    None => fail("no such path in the view".into()),
                },
                "at_least" | "at_most" => match (got.and_then(Json::as_f64), vj.as_f64()) {
                    (Some(g), Some(w)) => {
                        if (k == "at_least" && g < w) || (k == "at_most" && g > w) {
                            fail(format!("expected {k} {w}, found {g}"));
                        }
                    }
                    _ => fail(format!("{k} needs a number, found {}", got.map(show).unwrap_or("nothing".into()))),
                },
                "len" => {
                    let len = match got {
                        Some(Json::Array(a)) => Some(a.len()),
                        Some(Json::Object(o)) => Some(o.len()),
                        Some(Json::String(s)) => Some(s.chars().count()),
                        _ => None,
                    };
                    if len.map(|l| l as f64) != vj.as_f64() {
                        fail(format!(
                            "expected len {}, found {}",
                            show(&vj),
                            got.map(show).unwrap_or("nothing".into())
                        ));
                    }
                }
                other => fail(format!("unknown assertion {other:?}: use contains, absent, at_least, at_most or len")),
            }
        } else {
            match got {
                None => fail(format!("no such path in the view (expected {})", show(&want_json))),
                Some(g) if !same(g, &want_json) => fail(format!("expected {}, found {}", show(&want_json), show(g))),
                _ => {}
            }
        }
    }
    out
}

/// The 1-based line of a byte offset in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The most errors a loader reports for one file; the rest are counted ("…and 392 more").
pub const MAX_ERRORS: usize = 20;

/// `errors` cut to [`MAX_ERRORS`], with a last line counting the ones left out.
pub fn capped(mut errors: Vec<String>) -> Vec<String> {
    if errors.len() > MAX_ERRORS {
        let more = errors.len() - MAX_ERRORS;
        errors.truncate(MAX_ERRORS);
        errors.push(format!("…and {more} more"));
    }
    errors
}

/// Checks a number of a file against its allowed range: `Some(error)` naming the field, the
/// value and the range when it is outside.
pub fn out_of_range(field: &str, value: i64, range: std::ops::RangeInclusive<i64>) -> Option<String> {
    (!range.contains(&value)).then(|| format!("{field}: {value} is outside {}..{}", range.start(), range.end()))
}

/// The largest number, of either sign, a Kazzam or Draw Steel file may hold (issue 14). Each
/// field has its own narrower range where its loader checks it; this bound catches the rest, so
/// no sum of game values can overflow.
pub const MAX_NUMBER: i64 = 9999;

/// Every integer of the TOML `text` beyond ±[`MAX_NUMBER`], each an error naming the line and
/// the field's path; the top-level keys in `skip` (a seed, the expectations) are not looked at.
/// A text that is not TOML gives nothing here (its loader reports it).
pub fn numbers_beyond(text: &str, skip: &[&str]) -> Vec<String> {
    numbers_outside(text, skip, &[])
}

/// The range a field's numbers must lie in, wherever the field is: `key` is matched against the
/// end of a number's path with list indexes left out, at a dot (`"push"` matches
/// `power[2].effect[0].push`; `"creep.size"` matches `creep[4].size` only).
pub type FieldRange = (&'static str, std::ops::RangeInclusive<i64>);

/// Every integer of the TOML `text` outside its field's range: the first entry of `ranges`
/// whose key ends the number's path, else ±[`MAX_NUMBER`]. Each is one error naming the line, the
/// field's path, the value and the range, in the order of the lines; the top-level keys in
/// `skip` are not looked at.
pub fn numbers_outside(text: &str, skip: &[&str], ranges: &[FieldRange]) -> Vec<String> {
    numbers_where(text, &|k| !skip.contains(&k), ranges)
}

/// As [`numbers_outside`], looking only at the top-level keys in `only` (a scenario's own powers
/// and stat blocks, say).
pub fn numbers_outside_of(text: &str, only: &[&str], ranges: &[FieldRange]) -> Vec<String> {
    numbers_where(text, &|k| only.contains(&k), ranges)
}

fn numbers_where(text: &str, look: &dyn Fn(&str) -> bool, ranges: &[FieldRange]) -> Vec<String> {
    struct Walk<'a> {
        text: &'a str,
        ranges: &'a [FieldRange],
        out: Vec<(usize, String)>,
    }
    impl Walk<'_> {
        fn visit(&mut self, v: &toml::Value, path: &str, bare: &str) {
            match v {
                toml::Value::Integer(n) => self.number(*n, path, bare),
                toml::Value::Array(items) => {
                    for (i, x) in items.iter().enumerate() {
                        self.visit(x, &format!("{path}[{i}]"), bare);
                    }
                }
                toml::Value::Table(t) => {
                    for (k, x) in t {
                        self.visit(x, &format!("{path}.{k}"), &format!("{bare}.{k}"));
                    }
                }
                _ => {}
            }
        }
        fn number(&mut self, n: i64, path: &str, bare: &str) {
            let ends = |key: &str| bare == key || bare.strip_suffix(key).is_some_and(|head| head.ends_with('.'));
            let key = path.rsplit(['.', ']']).next().unwrap_or(path);
            let at = self.text.lines().position(|l| l.contains(key) && l.contains(&n.to_string()));
            let line = at.map(|i| format!("line {}, ", i + 1)).unwrap_or_default();
            let error = match self.ranges.iter().find(|(k, _)| ends(k)) {
                Some((_, r)) if !r.contains(&n) => format!("{line}{path}: {n} is outside {}..{}", r.start(), r.end()),
                Some(_) => return,
                // `unsigned_abs`: the most negative integer has no `abs` (found by fuzzing).
                None if n.unsigned_abs() > MAX_NUMBER as u64 => {
                    format!("{line}{path}: {n} is beyond ±{MAX_NUMBER}, the largest number Fray reads")
                }
                None => return,
            };
            self.out.push((at.unwrap_or(usize::MAX), error));
        }
    }
    let mut walk = Walk { text, ranges, out: Vec::new() };
    if let Ok(table) = toml::from_str::<toml::Table>(text) {
        for (k, v) in table.iter().filter(|(k, _)| look(k)) {
            walk.visit(v, k, k);
        }
    }
    // In the file's order (a table's keys come sorted by name).
    walk.out.sort_by_key(|(line, _)| *line);
    walk.out.into_iter().map(|(_, e)| e).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 14: a number no rule allows is caught wherever it is, with its line and path.
    #[test]
    fn numbers_beyond_the_bound_are_found_with_line_and_path() {
        let text = "seed = 123456789\n[[power]]\nid = \"p\"\neffect = [{ damage = 2147483647 }]\n";
        assert_eq!(
            numbers_beyond(text, &["seed"]),
            ["line 4, power[0].effect[0].damage: 2147483647 is beyond ±9999, the largest number Fray reads"]
        );
        assert!(numbers_beyond("a = -9999\n", &[]).is_empty());
        // The most negative integer too (fuzzing: `abs` overflowed on it, or let it through).
        assert_eq!(
            numbers_beyond("a = -9223372036854775808\n", &[]),
            ["line 1, a: -9223372036854775808 is beyond ±9999, the largest number Fray reads"]
        );
    }

    /// Issue 14: each field's own range, matched on the end of its path, before the catch-all.
    #[test]
    fn numbers_outside_their_fields_range_name_line_path_and_range() {
        let ranges: &[FieldRange] = &[("creep.size", 1..=4), ("size", 1..=99), ("push", 0..=99)];
        let text = "[[creep]]\nsize = 5\n[[creep.action]]\neffect = [{ push = -1 }, { size = 5 }]\nother = 12345\n";
        assert_eq!(
            numbers_outside(text, &[], ranges),
            [
                "line 2, creep[0].size: 5 is outside 1..4",
                "line 4, creep[0].action[0].effect[0].push: -1 is outside 0..99",
                "line 5, creep[0].action[0].other: 12345 is beyond ±9999, the largest number Fray reads",
            ]
        );
        // A key matches at a dot only: `pushes` is not `push`.
        assert!(numbers_outside("pushes = -5\n", &[], ranges).is_empty());
    }

    /// Issue 14: a long list of errors is capped, with a count of the rest.
    #[test]
    fn error_lists_are_capped_with_a_count() {
        let errors: Vec<String> = (0..412).map(|i| format!("e{i}")).collect();
        let c = capped(errors);
        assert_eq!(c.len(), MAX_ERRORS + 1);
        assert_eq!(c.last().unwrap(), "…and 392 more");
        assert_eq!(capped(vec!["one".into()]), ["one"]);
        assert_eq!(out_of_range("speed", -3, 0..=99).unwrap(), "speed: -3 is outside 0..99");
        assert!(out_of_range("speed", 99, 0..=99).is_none());
    }

    #[test]
    fn assertions_compare_numbers_lists_and_absence() {
        let view: Json = serde_json::json!({"units": {"bo": {"hp": 6, "statuses": ["prone"]}}, "decision": null});
        let table: toml::Table = toml::from_str(
            r#""units.bo.hp" = 6
"units.bo.statuses" = { contains = "prone" }
"decision" = { absent = true }
"units.bo.statuses.0" = "prone""#,
        )
        .unwrap();
        assert!(check(&view, &table).is_empty());
        let bad: toml::Table = toml::from_str(
            r#""units.bo.hp" = { at_least = 7 }
"units.al.hp" = 1"#,
        )
        .unwrap();
        let f = check(&view, &bad);
        assert_eq!(f.len(), 2);
        assert!(f.iter().any(|m| m.contains("units.al.hp") && m.contains("no such path")));
    }
}
