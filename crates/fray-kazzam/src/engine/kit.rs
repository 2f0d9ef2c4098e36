//! The kit Kazzam's rules are written against: the context ([`Ctx`]: state, dice, journal) and
//! the d6 its rules bend ([`Rolls`]). It sits on the data layer and the journal
//! ([`crate::engine::events`]) only, so every rule module can name it without reaching the
//! dispatch of frames ([`crate::engine::flow`]).

use crate::engine::events::{self, Event};
use crate::engine::state::{State, UnitIdx};
use fray_core::engine::{Apply, Stack};
use fray_core::ruleset::RuleError;

pub use crate::engine::frames::Frame;
pub use fray_core::engine::Flow;

/// The state, the dice and the journal while Kazzam's rules resolve: the kit's context over
/// Kazzam's [`State`] and [`Event`]s (`emit` applies through [`Apply`], `push` through [`Stack`]).
pub type Ctx<'a> = fray_core::engine::Ctx<'a, State, Event>;

impl Apply<Event> for State {
    fn apply(&mut self, event: &Event) {
        events::apply(self, event);
    }
}

impl Stack for State {
    type Frame = Frame;
    fn frames(&self) -> &[Frame] {
        &self.flow
    }
    fn frames_mut(&mut self) -> &mut Vec<Frame> {
        &mut self.flow
    }
}

/// Kazzam's d6, which its rules bend: bring the trait into scope to roll one (`cx.d6(unit)`).
pub trait Rolls {
    /// Rolls a d6 for `unit` (Reversal of Fortune turns it into 7 minus the roll; a Seer's armed
    /// foreseen result replaces it).
    fn d6(&mut self, unit: Option<UnitIdx>) -> Result<i32, RuleError>;
}

impl Rolls for Ctx<'_> {
    fn d6(&mut self, unit: Option<UnitIdx>) -> Result<i32, RuleError> {
        let die = crate::engine::hooks::table(self.s).die();
        if let Some(v) = unit.zip(die).and_then(|(u, f)| f(self, u)) {
            return Ok(v); // Seer: the foreseen result, no die rolled
        }
        let r = self.dice.roll(6)? as i32;
        if let Some(u) = unit
            && self.s.unit(u).reversal
        {
            self.emit(Event::Reversal { unit: self.s.who(u), armed: false });
            return Ok(7 - r);
        }
        Ok(r)
    }
}

thread_local! {
    /// How many [`quietly`] calls are under way on this thread.
    static QUIET: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Runs `f` with refusals left unworded: for questions whose refusals nobody reads (a menu and
/// a decision's options are built from checks asked only yes or no).
pub fn quietly<R>(f: impl FnOnce() -> R) -> R {
    struct Loud;
    impl Drop for Loud {
        fn drop(&mut self) {
            QUIET.with(|q| q.set(q.get() - 1));
        }
    }
    QUIET.with(|q| q.set(q.get() + 1));
    let _loud = Loud;
    f()
}

/// A refusal by rule `rule`; its message is written only outside [`quietly`], where someone
/// may read it.
pub fn refuse(rule: &str, message: impl std::fmt::Display) -> RuleError {
    if QUIET.with(|q| q.get()) > 0 {
        RuleError::Refused { rule: None, message: String::new() }
    } else {
        RuleError::refused(rule, message)
    }
}

thread_local! {
    /// Whether options are being built for `Game::legal`, which reads only their ids.
    static UNLABELLED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with option labels and prompts left unwritten ([`label`]): for the hot path
/// (`Game::legal`, `Game::node`), which reads only ids; decisions people read are built outside.
pub fn unlabelled<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            UNLABELLED.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(UNLABELLED.with(|c| c.replace(true)));
    f()
}

/// The label (or prompt) `f` writes, or an empty one within [`unlabelled`].
pub fn label(f: impl FnOnce() -> String) -> String {
    if UNLABELLED.with(|c| c.get()) { String::new() } else { f() }
}
