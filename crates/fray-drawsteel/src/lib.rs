//! Draw Steel combat on the Fray engine, from the glossary (`../shared/seeds/003_...`) and, where
//! the glossary is silent or older, the published rules (docs/rulings/drawsteel.md).
//!
//! Code map: [`model`] (characteristics, sizes, conditions, stat blocks and abilities as data),
//! [`state`], [`events`] (the journal; `apply`), [`flow`] (the resolution stack, decisions),
//! [`turn`] (initiative, alternating sides, EoT and saves), [`rolls`] (power rolls, edges and
//! banes, tests, saves), [`actions`] (the turn's actions, commands, checks), [`abilities`]
//! (using abilities, free strikes, potency, surges), [`forced`] (push, pull, slide, slams,
//! falls), [`damage`] (Stamina, dying, Recoveries, bleeding), [`respite`] (rest after a fight),
//! [`setup`], [`scenario`], [`view`], [`options`].
#![deny(missing_docs)]

pub mod abilities;
pub mod actions;
pub mod areas;
pub mod damage;
pub mod events;
pub mod flow;
pub mod forced;
pub mod model;
pub mod options;
pub mod respite;
pub mod rolls;
pub mod scenario;
pub mod setup;
pub mod state;
pub mod turn;
pub mod view;

use fray_core::decision::Decision;
use fray_core::dice::Dice;
use fray_core::ruleset::{Outcome, RuleError, Ruleset};
use fray_core::view::View;

pub use actions::Command;
pub use events::Event;
pub use state::State;

/// The Draw Steel ruleset.
pub struct DrawSteel;

/// Starts a combat: who goes first (rolled, or fixed by `first`), then runs to the first
/// decision.
pub fn start(state: &mut State, dice: &mut dyn Dice, first: Option<state::Side>) -> Result<Vec<Event>, RuleError> {
    let mut log = Vec::new();
    let mut cx = flow::Ctx { s: state, dice, log: &mut log };
    match first {
        Some(side) => {
            cx.emit(Event::FirstSide { side, roll: None, why: "set by the scenario".into() });
            cx.emit(Event::RoundStarted { round: 1 });
        }
        None => turn::start(&mut cx)?,
    }
    flow::run(&mut cx)?;
    Ok(log)
}

impl Ruleset for DrawSteel {
    const SYSTEM: &'static str = "drawsteel";
    type State = State;
    type Command = Command;
    type Event = Event;

    fn decision(state: &State) -> Option<Decision> {
        flow::decision(state)
    }

    fn choose(state: &mut State, option: &str, dice: &mut dyn Dice, journal: &mut Vec<Event>) -> Result<(), RuleError> {
        let mut cx = flow::Ctx { s: state, dice, log: journal };
        flow::choose(&mut cx, option)
    }

    fn act(
        state: &mut State,
        command: &Command,
        dice: &mut dyn Dice,
        journal: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let (c, verb) = actions::parse(state, command)?;
        if let actions::Verb::Rest(how) = verb {
            // DS-REST-1: between combats, not a turn's action.
            respite::check(state, c)?;
            let mut cx = flow::Ctx { s: state, dice, log: journal };
            respite::take(&mut cx, c, how);
            return Ok(());
        }
        let extra = match state.flow.last() {
            Some(flow::Frame::Act { c: x }) if *x == c => false,
            Some(flow::Frame::Extra { c: x }) if *x == c => true,
            _ => {
                let msg = match flow::decision(state) {
                    Some(d) => {
                        format!("{} cannot act now: a {} decision is pending ({})", command.unit, d.kind, d.prompt)
                    }
                    None => "the combat is over".into(),
                };
                return Err(RuleError::refused("DS-TURN-1", msg));
            }
        };
        actions::check_verb(state, c, &verb, extra)?;
        let mut cx = flow::Ctx { s: state, dice, log: journal };
        let top = cx.s.flow.pop().expect("checked");
        if !extra {
            cx.push(top);
        }
        actions::execute(&mut cx, c, verb, extra)?;
        flow::run(&mut cx)
    }

    fn view(state: &State) -> View {
        view::build(state)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }
}
