//! The resolution stack on the core's engine kit ([`fray_core::engine`]): the frames of a
//! combat, and how each advances ([`Resolve::step`]), what it asks ([`Resolve::question`]) and
//! how it takes an answer ([`Resolve::answer`]) — one `match` handing each frame to its rule
//! module. The loop itself is [`engine::run`].

use crate::events::{Ctx, Event};
use crate::state::{Cx, Side, State};
use crate::turn::ready;

pub use crate::frames::Frame;
use fray_core::decision::{Decision, DecisionOption};
use fray_core::engine::{self, Flow, Machine, Resolve, Stack};
use fray_core::ruleset::RuleError;

impl Stack for State {
    type Frame = Frame;
    fn frames(&self) -> &[Frame] {
        &self.flow
    }
    fn frames_mut(&mut self) -> &mut Vec<Frame> {
        &mut self.flow
    }
}

impl Machine for State {
    type Event = Event;
    fn over(&self) -> bool {
        self.outcome.is_some()
    }
    /// Between turns: the next side picks, or the round ends.
    fn idle(&self) -> Frame {
        Frame::Next
    }
}

impl Resolve<State> for Frame {
    fn step(self, cx: &mut Ctx) -> Result<Flow, RuleError> {
        Ok(match self {
            Frame::Next => crate::turn::next(cx)?,
            Frame::EndTurn { c, token_save } => crate::turn::end_turn(cx, c, token_save)?,
            Frame::Act { c } => crate::turn::act_step(cx, c),
            Frame::Ability(a) => crate::abilities::step(cx, a)?,
            Frame::Forced(f) => crate::forced::step(cx, f),
            Frame::ForcedOrder { mover, frames } => crate::forced::order_step(cx, mover, frames),
            Frame::Bodies { cs } => crate::forced::remove_bodies(cx, &cs),
            Frame::Walk { c, path, how, asked, after } => crate::actions::walk_step(cx, c, path, how, asked, after)?,
            Frame::Pick { side } if ready(cx.s, side).is_empty() => Flow::Continue,
            waiting => cx.wait(waiting),
        })
    }

    fn question(&self, s: &State) -> Option<Decision> {
        question(self, s)
    }

    fn answer(self, cx: &mut Ctx, option: &str) -> Result<(), RuleError> {
        match self {
            Frame::Pick { side } => crate::turn::answer_pick(cx, side, option),
            Frame::Act { c } => crate::actions::answer_menu(cx, c, option, false),
            Frame::Extra { c } => crate::actions::answer_menu(cx, c, option, true),
            Frame::MaliceAmount { c } => crate::actions::answer_malice_amount(cx, c, option),
            Frame::Villain { after } => crate::turn::answer_villain(cx, after, option),
            Frame::Pray { c } => crate::turn::answer_pray(cx, c, option),
            Frame::Pending { c, p } => crate::actions::answer_pending(cx, c, p, option),
            Frame::Ability(a) => crate::abilities::answer(cx, a, option),
            Frame::Forced(f) => crate::forced::answer(cx, f, option),
            Frame::ForcedOrder { mover, frames } => crate::forced::answer_order(cx, mover, frames, option),
            Frame::Opportunity { by, mover } => crate::actions::answer_opportunity(cx, by, mover, option),
            Frame::Wall { c, left, within, placed } => crate::forced::answer_wall(cx, c, left, within, placed, option),
            Frame::Teleport { target, .. } => crate::forced::answer_teleport(cx, target, option),
            Frame::Sweep { c, ability, left, visited, main_action } => {
                crate::actions::answer_sweep(cx, c, ability, left, visited, main_action, option)
            }
            other => {
                cx.push(other);
                Err(RuleError::malformed("that cannot be answered"))
            }
        }
    }
}

fn pick_options(s: &State, side: Side) -> Vec<DecisionOption> {
    ready(s, side)
        .into_iter()
        .map(|c| DecisionOption::new(s.c(c).id.to_string(), format!("{} acts next", s.c(c).name)))
        .collect()
}

/// The pending decision (the top frame's question).
pub fn decision(s: &State) -> Option<Decision> {
    engine::decision(s)
}

fn question(frame: &Frame, s: &State) -> Option<Decision> {
    let (seat, unit, kind, prompt, options): (Side, Option<Cx>, &str, String, Vec<DecisionOption>) = match frame {
        Frame::Pick { side } => {
            (*side, None, "pick", format!("the {}: who acts next?", side.name()), pick_options(s, *side))
        }
        Frame::Act { c } => (
            s.c(*c).side,
            Some(*c),
            "action",
            format!("{}: choose an action", s.c(*c).id),
            crate::actions::menu(s, *c, false),
        ),
        Frame::Extra { c } => (
            s.c(*c).side,
            Some(*c),
            "extra-action",
            format!("{}: critical hit — take another main action?", s.c(*c).id),
            crate::actions::menu(s, *c, true),
        ),
        Frame::Villain { after } => (
            Side::Director,
            None,
            "villain-action",
            format!("the Director: {}'s turn is over — take a villain action?", s.c(*after).id),
            crate::turn::villain_options(s, *after),
        ),
        Frame::Pray { c } => (
            s.c(*c).side,
            Some(*c),
            "pray",
            format!("{}: pray before rolling for piety?", s.c(*c).id),
            crate::turn::PRAYER.iter().map(|&(id, label)| DecisionOption::new(id, label)).collect(),
        ),
        Frame::MaliceAmount { c } => (
            s.c(*c).side,
            Some(*c),
            "malice",
            format!("{}: how much Malice for Malicious Strike? ({} in the pool)", s.c(*c).id, s.malice),
            crate::actions::malice_amounts(s, *c),
        ),
        Frame::Pending { c, p } => {
            let (kind, prompt, options) = crate::actions::pending_question(s, *c, p);
            (s.c(*c).side, Some(*c), kind, prompt, options)
        }
        Frame::Ability(a) => {
            let (c, kind, prompt, options) = crate::abilities::question(s, a)?;
            (s.c(c).side, Some(c), kind, prompt, options)
        }
        Frame::Forced(f) => {
            let (kind, prompt, options) = crate::forced::question(s, f);
            (s.c(f.mover).side, Some(f.mover), kind, prompt, options)
        }
        Frame::ForcedOrder { mover, frames } => {
            let (kind, prompt, options) = crate::forced::order_question(s, *mover, frames);
            (s.c(*mover).side, Some(*mover), kind, prompt, options)
        }
        Frame::Opportunity { by, mover } => {
            let (kind, prompt, options) = crate::actions::opportunity_question(s, *by, *mover);
            (s.c(*by).side, Some(*by), kind, prompt, options)
        }
        Frame::Wall { c, left, within, placed } => (
            s.c(*c).side,
            Some(*c),
            "square",
            format!("{}: place a wall square ({left} left)", s.c(*c).id),
            crate::forced::wall_options(s, *c, *within, placed),
        ),
        Frame::Sweep { c, ability, left, .. } => {
            let mut o: Vec<DecisionOption> = crate::actions::sweep_squares(s, *c, *left)
                .into_iter()
                .map(|q| DecisionOption::square(q, format!("shift to {q}")))
                .collect();
            o.push(DecisionOption::new("stop", "end the move here"));
            (s.c(*c).side, Some(*c), "square", format!("{}: {} — shift ({left} left)", s.c(*c).id, ability.name), o)
        }
        Frame::Teleport { by, target, range } => (
            s.c(*by).side,
            Some(*by),
            "square",
            format!("{}: teleport {} where?", s.c(*by).id, s.c(*target).id),
            crate::forced::teleport_options(s, *target, *range),
        ),
        _ => return None,
    };
    Some(Decision {
        seat: seat.name().to_string(),
        unit: unit.map(|c| s.c(c).id.to_string()),
        kind: kind.into(),
        prompt,
        options,
    })
}
