//! The Pest (the-pest, L1377-1379): a Tinker's automaton that rides an enemy. After its move
//! (its automaton turn, summons.rs) it latches onto an enemy next to it and from then on shares
//! that host's square without filling it (`summons::occupies` is false for it): every change of
//! the host's square carries it along (`carry`, called by `events::apply`), and anything that
//! moves the Pest itself tears it off. While it rides, its host's attacks at anyone else have
//! Disadvantage, the host may fling it off with a Move Action (the basic power
//! `shake-off-pest`), and an attack by anyone else that misses the Pest hits the host instead.
//! See docs/rulings/kazzam.md.

pub use crate::content::hooks::PEST_POWER as POWER_HOOKS;
pub use crate::engine::appliers::{host, riding};
use crate::engine::events::{Event, How};
use crate::engine::kit::{Ctx, Frame};
use crate::engine::state::{State, Unit, UnitIdx, UnitKind};
pub use crate::rules::query::{burdened, pest_on, redirect_to};
use crate::rules::summons::PlacedFrame;
use fray_core::decision::DecisionOption;
use fray_core::geometry::distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// The power that makes a Pest.
const PEST: &str = "the-pest";

/// Enemies a Pest standing where it is may latch onto: those next to it with turns and actions
/// of their own (so a Move Action to shake it off; see rulings) that carry no Pest yet.
fn hosts_near(s: &State, pest: UnitIdx) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&t| s.enemies(pest, t) && s.distance(pest, t) == Some(1))
        .filter(|&t| crate::rules::summons::takes_actions(s.unit(t)) && s.order.contains(&t) && pest_on(s, t).is_none())
        .collect()
}

/// Whether `u` is a Pest.
fn is_pest(u: &Unit) -> bool {
    u.kind == UnitKind::Automaton && u.placed.as_ref().is_some_and(|p| &*p.what == PEST)
}

/// The Pest's turn after its move: a Pest riding nobody latches onto an enemy next to it.
pub fn after_move(cx: &mut Ctx, pest: UnitIdx) {
    let u = cx.s.unit(pest);
    if !is_pest(u) || riding(u) || hosts_near(cx.s, pest).is_empty() {
        return;
    }
    cx.push(Frame::Placed(PlacedFrame::PestAttach { unit: pest }));
}

/// The Pest's frames (kept among the placed ones): their decision kind, prompt and options.
pub fn question(s: &State, f: &PlacedFrame) -> (&'static str, String, Vec<DecisionOption>) {
    match *f {
        PlacedFrame::PestAttach { unit } => {
            ("target", format!("{}: which enemy does it latch onto?", s.unit(unit).id), attach_options(s, unit))
        }
        PlacedFrame::PestShake { host } => {
            ("square", format!("{}: where is the Pest flung?", s.unit(host).id), shake_options(s, host))
        }
        _ => unreachable!("only the Pest's frames come here"),
    }
}

/// Answers one of the Pest's frames.
pub fn answer(cx: &mut Ctx, f: PlacedFrame, option: &str) -> Result<(), RuleError> {
    match f {
        PlacedFrame::PestAttach { unit } => attach(cx, unit, option),
        PlacedFrame::PestShake { host } => shake(cx, host, option),
        _ => unreachable!("only the Pest's frames come here"),
    }
}

/// The `target` question of a Pest about to latch on.
pub fn attach_options(s: &State, pest: UnitIdx) -> Vec<DecisionOption> {
    hosts_near(s, pest).into_iter().map(|t| crate::rules::actions::unit_option(s, t)).collect()
}

/// The Pest latches onto the enemy named by `option`.
pub fn attach(cx: &mut Ctx, pest: UnitIdx, option: &str) -> Result<(), RuleError> {
    let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
    if !hosts_near(cx.s, pest).contains(&t) {
        return Err(RuleError::malformed(format!("{option} is no enemy next to the Pest")));
    }
    cx.emit(Event::Attached { unit: cx.s.who(pest), host: Some(cx.s.who(t)) });
    Ok(())
}

/// A host leaving the map (Taken Out, destroyed): its Pest lets go and stays in the square, or
/// the nearest free one if it cannot stand there.
pub fn host_gone(cx: &mut Ctx, h: UnitIdx) {
    for p in cx.s.unit_indices().filter(|&p| riding(cx.s.unit(p)) && host(cx.s.unit(p)) == Some(h)).collect::<Vec<_>>()
    {
        cx.emit(Event::Attached { unit: cx.s.who(p), host: None });
        crate::rules::movement::settle_on_legal_square(cx, p, "drops off where its host was");
    }
}

/// Squares next to `h` where its Pest may be flung.
fn shake_squares(s: &State, h: UnitIdx) -> Vec<Pos> {
    let (Some(p), Some(pest)) = (s.unit(h).pos, pest_on(s, h)) else { return Vec::new() };
    let size = s.unit(h).size;
    s.arena
        .terrain
        .squares()
        .filter(|&q| distance(p, size, q, 1) == 1 && crate::rules::movement::can_stand(s, pest, q, 1))
        .collect()
}

/// Whether `u` may use `power` without knowing it: the shake-off, while it carries a Pest.
pub fn shake_power(s: &State, u: UnitIdx, power: u16) -> bool {
    s.powers.get(power).hook.as_deref() == Some("shake-off-pest") && pest_on(s, u).is_some()
}

/// The shake-off for `u`'s menu (it does not know it as a power).
pub fn menu(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let Some(p) = crate::engine::memo::find_power(s, "shake-off-pest") else { return Vec::new() };
    if s.unit(u).powers.contains(&p)
        || crate::rules::actions::check_power_use(s, u, p, false).is_err()
        || crate::rules::control::check_power(s, u, s.powers.get(p), &[]).is_err()
    {
        return Vec::new();
    }
    vec![DecisionOption::new("power:shake-off-pest", s.powers.get(p).name.clone())]
}

/// Refuses the shake-off with no Pest on, or nowhere to fling it.
pub fn check_use(s: &State, u: UnitIdx, def: &crate::content::powers::PowerDef) -> Result<(), RuleError> {
    if def.hook.as_deref() != Some("shake-off-pest") {
        return Ok(());
    }
    if pest_on(s, u).is_none() {
        return Err(crate::engine::kit::refuse(PEST, format_args!("{} carries no Pest", s.unit(u).id)));
    }
    if shake_squares(s, u).is_empty() {
        return Err(crate::engine::kit::refuse(
            PEST,
            format_args!("{} has no free square next to it for the Pest", s.unit(u).id),
        ));
    }
    Ok(())
}

/// The shake-off (a Move Action): asks where the Pest lands.
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16) -> Result<(), RuleError> {
    let pest = pest_on(cx.s, u).expect("checked");
    let name = cx.s.powers.get(power).name.clone();
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: name, targets: vec![cx.s.who(pest)] });
    cx.push(Frame::Placed(PlacedFrame::PestShake { host: u }));
    Ok(())
}

/// The `square` question of a shake-off.
pub fn shake_options(s: &State, h: UnitIdx) -> Vec<DecisionOption> {
    shake_squares(s, h).into_iter().map(|q| DecisionOption::square(q, format!("fling the Pest to {q}"))).collect()
}

/// Flings `h`'s Pest to the square `option`.
pub fn shake(cx: &mut Ctx, h: UnitIdx, option: &str) -> Result<(), RuleError> {
    let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
    if !shake_squares(cx.s, h).contains(&q) {
        return Err(RuleError::malformed(format!("{q} is not a free square next to {}", cx.s.unit(h).id)));
    }
    let pest = pest_on(cx.s, h).expect("checked");
    let from = cx.s.unit(pest).pos.expect("on the map");
    cx.emit(Event::Attached { unit: cx.s.who(pest), host: None });
    cx.emit(Event::Moved { unit: cx.s.who(pest), from, to: q, how: How::Throw });
    crate::rules::summons::entered(cx, pest, from, q)
}

/// The Pest's power hook (shaking it off) and its use check.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(POWER_HOOKS, |cx, a| use_power(cx, a.unit, a.power));
    r.check_use(20, check_use);
    r.menu(30, menu); // shaking a Pest off
    r.lends(shake_power);
    r.placed_frames(question, answer);
    r.on_unit_gone(10, "the-pest", host_gone); // its host left the map: it lets go
    r.on_automaton_moved(10, "the-pest", after_move); // it latches on (L1379)
}
