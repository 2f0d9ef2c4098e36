//! Kazzam: A Magical Sport, on the Fray engine.
//!
//! Code map, by rule area: [`arena`] (terrain, pedestals, Dungeon), [`state`] (units, orbs),
//! [`statuses`] (K-ST), [`events`] (the journal and the only code that changes state),
//! [`flow`] (the resolution stack and decisions), [`turn`] (initiative, phases, saves, the
//! end), [`actions`] (the action economy, the menu, commands), [`movement`] (K-MOVE),
//! [`opportunity`] (K-OPP), [`attack`] (K-ROLL, K-MISS, K-MULTI, K-ADV), [`damage`] (Ward,
//! Resist, Vulnerable, Taken Out, scoring Take Outs), [`forced`] (K-FM), [`zones`] (K-ZONE,
//! damaging terrain), [`cover`] (K-COV, K-CONC), [`orbs`] (K-ORB, dunking), [`powers`] (power
//! data), [`features`] (class features in play), [`empathy`] (the Diviner's Empath and Empathic Bond), [`role_actions`] (Role Actions in Rust), [`setup`] and [`scenario`] (building matches), [`view`] (what readers see),
//! [`builtin`] (the default arena and teams), [`options`] (table options), [`reference`] (the
//! rules look-up).
#![deny(missing_docs)]

pub mod actions;
pub mod advanced;
pub mod arena;
pub mod attack;
pub mod boosts;
pub mod brews;
pub mod builder;
pub mod builtin;
pub mod charms;
pub mod classes;
pub mod contagion;
pub mod control;
pub mod cover;
pub mod creeps;
pub mod curses;
pub mod damage;
pub mod defctl;
pub mod divination;
pub mod empathy;
pub mod events;
pub mod features;
pub mod flow;
pub mod forced;
pub mod gadgets;
pub mod jinx;
pub mod modifiers;
pub mod movement;
pub mod opportunity;
pub mod options;
pub mod orbs;
pub mod pest;
pub mod powers;
pub mod reference;
pub mod removal;
pub mod robes;
pub mod role_actions;
pub mod roles;
pub mod scenario;
pub mod setup;
pub mod specialists;
pub mod state;
pub mod statuses;
pub mod striker;
pub mod summons;
pub mod sword_moves;
pub mod tamer;
pub mod triggers;
pub mod turn;
pub mod view;
pub mod wandslinger;
pub mod wards;
pub mod warp_origin;
pub mod warps;
pub mod zones;

use fray_core::decision::Decision;
use fray_core::dice::Dice;
use fray_core::ruleset::{Outcome, RuleError, Ruleset};
use fray_core::view::View;

pub use actions::Command;
pub use events::Event;
pub use state::State;

/// The Kazzam ruleset.
pub struct Kazzam;

impl Ruleset for Kazzam {
    const SYSTEM: &'static str = "kazzam";
    type State = State;
    type Command = Command;
    type Event = Event;

    fn decision(state: &State) -> Option<Decision> {
        flow::decision(state)
    }

    fn choose(state: &mut State, option: &str, dice: &mut dyn Dice, journal: &mut Vec<Event>) -> Result<(), RuleError> {
        state.empathy.seen.clear();
        let mut cx = flow::Ctx { s: state, dice, log: journal };
        flow::choose(&mut cx, option)
    }

    fn act(
        state: &mut State,
        command: &Command,
        dice: &mut dyn Dice,
        journal: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let (u, verb) = actions::parse(state, command)?;
        let top = state.flow.last();
        let acting = match top {
            Some(flow::Frame::Act { unit }) => *unit == u,
            Some(flow::Frame::FinalAction { unit, acted: false }) => *unit == u,
            _ => false,
        };
        if !acting {
            let msg = match flow::decision(state) {
                Some(d) if d.kind == "action" => {
                    format!("it is not {}'s turn to act (waiting for {})", command.unit, d.unit.unwrap_or_default())
                }
                Some(d) => format!("a {} decision is pending ({}); answer it with choose", d.kind, d.prompt),
                None => "the match is over".to_string(),
            };
            return Err(RuleError::refused("K-TURN-2", msg));
        }
        actions::check(state, u, &verb)?;
        state.empathy.seen.clear();
        let mut cx = flow::Ctx { s: state, dice, log: journal };
        let frame = cx.s.flow.pop().expect("checked above");
        if let (flow::Frame::FinalAction { unit, .. }, actions::Verb::EndTurn(_)) = (&frame, &verb) {
            // Ending the turn during the final action passes it: the Ongoing damage lands.
            cx.push(flow::Frame::FinalAction { unit: *unit, acted: true });
            return flow::run(&mut cx);
        }
        match frame {
            flow::Frame::FinalAction { unit, .. } => cx.push(flow::Frame::FinalAction { unit, acted: true }),
            other => cx.push(other),
        }
        actions::execute(&mut cx, u, verb)?;
        flow::run(&mut cx)
    }

    fn view(state: &State) -> View {
        view::build(state)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }
}
