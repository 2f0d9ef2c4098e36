//! Kazzam's frames on the engine kit ([`fray_core::engine`]): a stack of half-resolved actions
//! ([`Frame`]s). The kit's loop pops the top frame and advances it ([`Resolve::step`]); a frame
//! that needs a person's (or a bot's) answer is pushed back and the loop stops with a pending
//! decision ([`Resolve::question`]); answers resume it ([`Resolve::answer`]). Interrupts push
//! frames above the action they interrupt, so they resolve first (K-ACT-7). [`State`] is the
//! kit's [`Machine`]: the loop's checks before and after each step are Kazzam's.

use crate::engine::events::Event;
use crate::engine::state::{State, UnitIdx};
use fray_core::decision::Decision;
use fray_core::engine::{Machine, Resolve};
use fray_core::ruleset::RuleError;

pub use crate::engine::frames::Frame;
pub use fray_core::engine::Flow;

pub use crate::engine::kit::{Ctx, Rolls};

impl Machine for State {
    type Event = Event;
    fn over(&self) -> bool {
        self.outcome.is_some()
    }
    fn idle(&self) -> Frame {
        Frame::NextTurn
    }
    fn before_step(cx: &mut Ctx) -> Result<(), RuleError> {
        if cx.s.end_triggered
            && cx.s.outcome.is_none()
            && cx.s.options.match_end == crate::engine::options::MatchEnd::Immediate
        {
            crate::rules::turn::finish(cx); // K-END-2: the losing side concedes at once
        }
        if cx.s.outcome.is_none() {
            cx.s.empathy.seen.clear(); // a new step: a new effect for the Empath
        }
        Ok(())
    }
    fn after_step(cx: &mut Ctx) -> Result<(), RuleError> {
        crate::engine::hooks::step_done(cx)?; // Jinxer: a chant's target too far away
        crate::rules::creeps::watch(cx); // K-CAI-1, K-CAI-3: orbs picked up, the Dungeon
        Ok(())
    }
}

/// Runs the match until it waits for a decision or ends (the kit's loop).
pub fn run(cx: &mut Ctx) -> Result<(), RuleError> {
    fray_core::engine::run(cx)
}

impl Resolve<State> for Frame {
    fn step(self, cx: &mut Ctx) -> Result<Flow, RuleError> {
        Ok(match self {
            Frame::NextTurn => crate::rules::turn::next_turn(cx)?,
            Frame::StartTurn { unit } => crate::rules::turn::start_turn(cx, unit)?,
            Frame::StartEffects { unit } => crate::rules::turn::start_effects(cx, unit)?,
            Frame::Act { unit } => crate::rules::turn::act_step(cx, unit)?,
            Frame::EndTurn { unit, fail } => crate::rules::turn::end_turn(cx, unit, fail)?,
            Frame::Move(m) => crate::rules::movement::step(cx, m)?,
            Frame::Attack(a) => crate::rules::attack::step(cx, a)?,
            Frame::Forced(f) => crate::rules::forced::step(cx, f)?,
            Frame::Placed(f) => crate::rules::summons::step(cx, f)?,
            Frame::Tamer(f) => crate::classes::tamer::step(cx, f)?,
            Frame::FinalAction { unit, acted, stings, blow } => {
                crate::rules::turn::final_action(cx, unit, acted, stings, blow)?
            }
            Frame::Trigger(t) => crate::engine::triggers::step(cx, t)?,
            Frame::Role(f) => crate::roles::role_actions::step(cx, f)?,
            Frame::Wand(f) => crate::classes::wandslinger::step(cx, f)?,
            Frame::Advanced(f) => crate::implements::advanced::step(cx, f)?,
            Frame::Warp(w) => crate::classes::porter::step(cx, w)?,
            Frame::Bully(b) => crate::classes::shivering_sword::step(cx, b)?,
            Frame::DefCtl(f) => crate::roles::defender_controller::step(cx, f)?,
            Frame::Spec(f) => crate::roles::specialists::step(cx, f)?,
            Frame::Creeps(f) => crate::rules::creeps::step(cx, f)?,
            Frame::GrantEnd { unit } => {
                if cx.s.unit(unit).granted_by.is_some() {
                    cx.emit(Event::Granted { unit: cx.s.who(unit), by: None });
                }
                if cx.s.unit(unit).granted_move {
                    cx.emit(Event::MoveGranted { unit: cx.s.who(unit), by: None });
                }
                Flow::Continue
            }
            Frame::GrantedAttack { unit, by, power_target, ref terms }
                if crate::rules::actions::grant_options(cx.s, unit, by, power_target, terms)
                    .iter()
                    .all(|o| o.id == "decline") =>
            {
                Flow::Continue // nothing it could attack: the grant lapses
            }
            Frame::GrantedMove { unit, .. } if crate::rules::actions::granted_move_options(cx.s, unit).len() <= 1 => {
                Flow::Continue // nothing it could do with it: the grant lapses
            }
            Frame::Pick { user, power_target, ref pick, .. }
                if crate::rules::attack::pick_candidates(cx.s, user, power_target, pick).is_empty() =>
            {
                Flow::Continue // nobody left to name (its user was Taken Out meanwhile)
            }
            Frame::ChooseEffect { target, .. } | Frame::Pick { power_target: target, .. }
                if !cx.s.unit(target).on_map() =>
            {
                Flow::Continue // what the choice was about is gone (Taken Out)
            }
            Frame::Granted { unit, by } if crate::rules::actions::granted_options(cx.s, unit).len() <= 1 => {
                let _ = by;
                Flow::Continue // nothing it could attack with: the grant lapses
            }
            Frame::Striker(ref f) if crate::roles::striker::question(cx.s, f).3.is_empty() => {
                Flow::Continue // no other target is left for the Blaster's extra damage (a Creep's
                // reaction to the first share took the others out): the rest is lost
            }
            Frame::Gadget(ref g) if crate::classes::tinker::question(cx.s, g).3.is_empty() => {
                Flow::Continue // nothing left to choose (Irena's Cloak's target Taken Out): it lapses
            }
            // A question left with nothing to choose lapses (what it offered was taken out or
            // moved away meanwhile, as a Creep's reaction can do): asking it would leave the
            // seat with no answer.
            ref waiting
                if crate::rules::actions::unlabelled(|| question(cx.s, waiting))
                    .is_some_and(|d| d.options.is_empty()) =>
            {
                Flow::Continue
            }
            waiting => cx.wait(waiting),
        })
    }

    fn question(&self, s: &State) -> Option<Decision> {
        question(s, self)
    }

    fn answer(self, cx: &mut Ctx, option: &str) -> Result<(), RuleError> {
        answer_frame(cx, self, option)
    }
}

/// The seat that answers for `unit`: its own side, or its controller's (its dominator under the
/// alternate Dominated rule, K-ST-Dominated; a 1 on the Frenzied or Panicked table).
pub fn seat_of(s: &State, unit: UnitIdx) -> String {
    let who = crate::rules::control::controller(s, unit).unwrap_or(unit);
    s.unit(who).side.name().to_string()
}

/// [`decision`] with labels and prompts left unwritten, for the hot path: only the seat and the
/// options' ids are read.
pub fn decision_ids(s: &State) -> Option<Decision> {
    crate::rules::actions::unlabelled(|| decision(s))
}

/// The decision the match waits for.
pub fn decision(s: &State) -> Option<Decision> {
    // No refusal met while building it is shown: the options are what checks allow.
    // It reads the state without changing it: each shot is judged once.
    crate::engine::kit::quietly(|| crate::rules::cover::remembering(|| fray_core::engine::decision(s)))
}

/// The question `frame` puts while it is on top of the stack.
fn question(s: &State, frame: &Frame) -> Option<Decision> {
    let (unit, kind, prompt, options) = match frame {
        Frame::Act { unit } | Frame::FinalAction { unit, .. } => {
            let prompt = crate::rules::actions::label(|| format!("{}: choose an action", s.unit(*unit).id));
            (*unit, "action", prompt, crate::rules::actions::menu(s, *unit))
        }
        Frame::Pending { unit, pending } => {
            let (kind, prompt, options) = crate::rules::actions::pending_question(s, *unit, pending);
            (*unit, kind, prompt, options)
        }
        Frame::Respawn { unit } => (
            *unit,
            "square",
            format!("{}: choose a spawn square in the Dungeon", s.unit(*unit).id),
            crate::rules::turn::respawn_options(s, *unit),
        ),
        Frame::Exit { unit } => (
            *unit,
            "square",
            format!("{}: come out beside the exit, or stay in the Dungeon", s.unit(*unit).id),
            crate::rules::turn::exit_options(s, *unit),
        ),
        Frame::Recharge { unit } => (
            *unit,
            "recharge",
            format!("{}: choose a spent Encounter power to recharge", s.unit(*unit).id),
            crate::rules::turn::recharge_options(s, *unit),
        ),
        Frame::Attack(a) => {
            let (unit, kind, prompt, options) = crate::rules::attack::question(s, a)?;
            (unit, kind, prompt, options)
        }
        Frame::Forced(f) => {
            let (unit, kind, prompt, options) = crate::rules::forced::question(s, f);
            (unit, kind, prompt, options)
        }
        Frame::TeleportSelf { unit, range } => (
            *unit,
            "square",
            format!("{}: choose where to teleport", s.unit(*unit).id),
            crate::rules::forced::teleport_options(s, *unit, *unit, *range),
        ),
        Frame::Banish { unit, by } => {
            let options = crate::rules::turn::spawn_options(s, *unit);
            let prompt = format!("{}: banish {} to which of its spawn squares?", s.unit(*by).id, s.unit(*unit).id);
            return Some(Decision {
                seat: seat_of(s, *by),
                unit: Some(s.unit(*by).id.to_string()),
                kind: "square".into(),
                prompt,
                options,
            });
        }
        Frame::GrantedAttack { unit, by, power_target, terms } => {
            let seat_unit = if terms.granter_aims { *by } else { *unit };
            return Some(Decision {
                seat: seat_of(s, seat_unit),
                unit: Some(s.unit(seat_unit).id.to_string()),
                kind: if terms.power.is_some() { "target".into() } else { "granted-attack".into() },
                prompt: format!(
                    "{}: {} lets {} make an attack now",
                    s.unit(seat_unit).id,
                    s.unit(*by).id,
                    s.unit(*unit).id
                ),
                options: crate::rules::actions::grant_options(s, *unit, *by, *power_target, terms),
            });
        }
        Frame::GrantedMove { unit, by } => (
            *unit,
            "granted-move",
            format!("{}: {} lets you spend a Move Action now", s.unit(*unit).id, s.unit(*by).id),
            crate::rules::actions::granted_move_options(s, *unit),
        ),
        Frame::Granted { unit, by } => (
            *unit,
            "granted-attack",
            format!("{}: {} lets you make an attack now", s.unit(*unit).id, s.unit(*by).id),
            crate::rules::actions::granted_options(s, *unit),
        ),
        Frame::ShiftSelf { unit, left } => (
            *unit,
            "square",
            format!("{}: shift ({left} square(s) left)", s.unit(*unit).id),
            crate::rules::movement::power_shift_options(s, *unit),
        ),
        Frame::LeaderBoost { unit } => (
            *unit,
            "target",
            format!("{}: Role Boost — which ally regains HP?", s.unit(*unit).id),
            crate::roles::boosts::leader_options(s, *unit),
        ),
        Frame::ChooseEffect { chooser, power, options, picks, .. } => (
            *chooser,
            "effect",
            if *picks > 1 {
                format!("{}: {} — choose one ({picks} to pick)", s.unit(*chooser).id, s.powers.get(*power).name)
            } else {
                format!("{}: {} — choose one", s.unit(*chooser).id, s.powers.get(*power).name)
            },
            options
                .iter()
                .enumerate()
                .map(|(i, c)| fray_core::decision::DecisionOption::new((i + 1).to_string(), c.label.clone()))
                .collect(),
        ),
        Frame::Pick { user, power_target, power, pick } => (
            *user,
            "target",
            format!("{}: {} — name a creature", s.unit(*user).id, s.powers.get(*power).name),
            crate::rules::attack::pick_candidates(s, *user, *power_target, pick)
                .into_iter()
                .map(|t| crate::rules::actions::unit_option(s, t))
                .collect(),
        ),
        Frame::Feature(f) => crate::classes::features::question(s, f),
        Frame::Trigger(t) => crate::engine::triggers::question(s, t),
        Frame::Placed(f) => {
            let (kind, prompt, options) = crate::rules::summons::question(s, f);
            (crate::rules::summons::chooser(f), kind, prompt, options)
        }
        Frame::Charm(f) => crate::classes::charmer::question(s, f),
        Frame::Brew(f) => crate::classes::brewer::question(s, f),
        Frame::Gadget(f) => crate::classes::tinker::question(s, f),
        Frame::Ward(f) => crate::classes::wardmaster::question(s, f),
        Frame::Divination(f) => crate::classes::diviner::question(s, f),
        Frame::Role(f) => crate::roles::role_actions::question(s, f),
        Frame::Wand(f) => crate::classes::wandslinger::question(s, f),
        Frame::Advanced(f) => crate::implements::advanced::question(s, f),
        Frame::Warp(f) => crate::classes::porter::question(s, f),
        Frame::Tamer(f) => {
            let (unit, kind, prompt, options) = crate::classes::tamer::question(s, f);
            (unit, kind, prompt, options)
        }
        Frame::Bully(f) => crate::classes::shivering_sword::question(s, f),
        Frame::DefCtl(f) => crate::roles::defender_controller::question(s, f),
        Frame::Spec(f) => crate::roles::specialists::question(s, f),
        Frame::Striker(f) => crate::roles::striker::question(s, f),
        Frame::Creeps(f) => crate::rules::creeps::question(s, f),
        _ => return None,
    };
    Some(Decision {
        seat: seat_of(s, unit),
        unit: Some(s.unit(unit).id.to_string()),
        kind: kind.into(),
        prompt,
        options,
    })
}

/// Answers the pending decision with one of the options [`decision`] offers (the caller has
/// checked that it is offered: [`fray_core::session::Session`] does).
pub fn answer(cx: &mut Ctx, option: &str) -> Result<(), RuleError> {
    fray_core::engine::answer(cx, option)
}

/// Takes `option` for `frame`, just taken off the stack.
fn answer_frame(cx: &mut Ctx, frame: Frame, option: &str) -> Result<(), RuleError> {
    match frame {
        Frame::Act { unit } => crate::rules::actions::answer_menu(cx, unit, option, false)?,
        Frame::FinalAction { unit, stings, blow, .. } => {
            cx.push(Frame::FinalAction { unit, acted: true, stings, blow });
            crate::rules::actions::answer_menu(cx, unit, option, true)?
        }
        Frame::Pending { unit, pending } => crate::rules::actions::answer_pending(cx, unit, pending, option)?,
        Frame::Respawn { unit } => crate::rules::turn::answer_respawn(cx, unit, option)?,
        Frame::Exit { unit } => crate::rules::turn::answer_exit(cx, unit, option)?,
        Frame::Recharge { unit } => crate::rules::turn::answer_recharge(cx, unit, option)?,
        Frame::Attack(a) => crate::rules::attack::answer(cx, a, option)?,
        Frame::Forced(f) => crate::rules::forced::answer(cx, f, option)?,
        Frame::Placed(f) => crate::rules::summons::answer(cx, f, option)?,
        Frame::TeleportSelf { unit, .. } => crate::rules::forced::answer_teleport_self(cx, unit, option)?,
        Frame::Pick { user, power_target, power, pick } => {
            let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            cx.emit(Event::Note { text: format!("{} names {}", cx.s.unit(user).id, cx.s.unit(t).id) });
            crate::rules::attack::apply_nested(cx, user, t, power_target, power, &pick.effect)?
        }
        Frame::ChooseEffect { chooser, user, target, power_target, power, mut options, picks } => {
            let i: usize = option.parse().map_err(|_| RuleError::malformed("answer with the option's number"))?;
            if i == 0 || i > options.len() {
                return Err(RuleError::malformed("no such option"));
            }
            let chosen = options.remove(i - 1);
            if picks > 1 && !options.is_empty() {
                // The next pick comes after this one has applied.
                cx.push(Frame::ChooseEffect { chooser, user, target, power_target, power, options, picks: picks - 1 });
            }
            let chosen = &chosen;
            cx.emit(Event::Note { text: format!("{} chooses: {}", cx.s.unit(chooser).id, chosen.label) });
            crate::rules::attack::apply_nested(cx, user, target, power_target, power, &chosen.effect.clone())?
        }
        Frame::Trigger(t) => crate::engine::triggers::answer(cx, t, option)?,
        Frame::Granted { unit, by } => crate::rules::actions::answer_granted(cx, unit, by, option)?,
        Frame::GrantedMove { unit, .. } => {
            if option != "decline" {
                crate::rules::actions::answer_menu(cx, unit, option, true)?;
            }
        }
        Frame::GrantedAttack { unit, by, terms, .. } => {
            crate::rules::actions::answer_grant(cx, unit, by, &terms, option)?
        }
        Frame::Charm(f) => crate::classes::charmer::answer(cx, f, option)?,
        Frame::Brew(f) => crate::classes::brewer::answer(cx, f, option)?,
        Frame::Gadget(f) => crate::classes::tinker::answer(cx, f, option)?,
        Frame::Role(f) => crate::roles::role_actions::answer(cx, f, option)?,
        Frame::Wand(f) => crate::classes::wandslinger::answer(cx, f, option)?,
        Frame::Advanced(f) => crate::implements::advanced::answer(cx, f, option)?,
        Frame::Warp(f) => crate::classes::porter::answer(cx, f, option)?,
        Frame::Tamer(f) => crate::classes::tamer::answer(cx, f, option)?,
        Frame::Bully(f) => crate::classes::shivering_sword::answer(cx, f, option)?,
        Frame::DefCtl(f) => crate::roles::defender_controller::answer(cx, f, option)?,
        Frame::Banish { unit, .. } => crate::rules::turn::answer_banish(cx, unit, option)?,
        Frame::LeaderBoost { unit } => crate::roles::boosts::answer_leader(cx, unit, option),
        Frame::Feature(f) => crate::classes::features::answer(cx, f, option)?,
        Frame::ShiftSelf { unit, left } => crate::rules::movement::answer_power_shift(cx, unit, left, option)?,
        Frame::Ward(f) => crate::classes::wardmaster::answer(cx, f, option)?,
        Frame::Divination(f) => crate::classes::diviner::answer(cx, f, option)?,
        Frame::Spec(f) => crate::roles::specialists::answer(cx, f, option)?,
        Frame::Striker(f) => crate::roles::striker::answer(cx, f, option)?,
        Frame::Creeps(f) => crate::rules::creeps::answer(cx, f, option)?,
        other => {
            cx.s.flow.push(other);
            return Err(RuleError::malformed("that decision cannot be answered"));
        }
    }
    Ok(())
}
