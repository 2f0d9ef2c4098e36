//! Damage, healing and being Taken Out: Weakened, Vulnerable, Resist and Ward in their order
//! (K-ST-Weakened, K-ST-Vulnerable, K-ST-Resist, K-ST-Ward), the Dungeon reset (K-DUN-1..5),
//! and the points and Strikes a Take Out gives (K-SCO-1..3, K-STK-3).

use crate::engine::events::Event;
use crate::engine::kit::{Ctx, Frame};
use crate::engine::state::{OrbLoc, State, UnitIdx, UnitKind};
pub use crate::rules::scoring::score;
use crate::rules::statuses::StatusKind;

/// What a packet of damage did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dealt {
    /// Damage after Vulnerable and Resist.
    pub total: i32,
    /// Taken by the Ward.
    pub ward: i32,
    /// Taken from hit points.
    pub hp: i32,
}

impl Dealt {
    /// K-ST-Ward: the Ward took everything and no HP was lost, so an attack's Effects do not apply.
    pub fn only_ward(&self) -> bool {
        self.total > 0 && self.hp == 0
    }
}

/// Extra context for damage from an attack or an Opportunity.
#[derive(Clone, Copy, Debug)]
pub struct FromAttack {
    /// Whether it comes from an attack or an Opportunity: a stowed implement makes the target
    /// Vulnerable 2 to those (K-IMP-10).
    pub attack_or_opportunity: bool,
    /// It ignores Ward and Resist (Piercing Shot).
    pub pierce: bool,
    /// It is a melee attack, or an Opportunity with a sword or bare hands (Directional Shield
    /// does not stop those).
    pub melee: bool,
}

/// The damage a packet comes to after Vulnerable then Resist (K-ST-Resist: Resist after
/// Vulnerable; Weakened was halved by the attacker before this).
pub fn adjusted(s: &State, target: UnitIdx, amount: i32, ctx: Option<FromAttack>) -> i32 {
    adjusted_from(s, target, amount, ctx, None)
}

/// [`adjusted`], counting Vulnerable that applies only to attacks by `source` (Victimize).
pub fn adjusted_from(s: &State, target: UnitIdx, amount: i32, ctx: Option<FromAttack>, source: Option<UnitIdx>) -> i32 {
    if amount <= 0 {
        return 0;
    }
    // Saturating: no sum of amounts wraps a hit into nothing (issue 14).
    let mut total = amount
        .saturating_add(s.amount(target, StatusKind::Vulnerable))
        .saturating_add(crate::rules::query::zone_vulnerable(s, target));
    if let Some(src) = source
        && ctx.is_some_and(|c| c.attack_or_opportunity)
    {
        total = total.saturating_add(crate::rules::modifiers::vulnerable_to(s, src, target));
    }
    if s.unit(target).stowed && ctx.is_some_and(|c| c.attack_or_opportunity) {
        total += 2;
    }
    if ctx.is_some_and(|c| c.pierce) {
        return total; // Piercing Shot: no Resist (rulings: nor Resist All)
    }
    if s.has(target, StatusKind::ResistAll) {
        return 0;
    }
    let shield = crate::rules::query::shield_resist(s, target, source, ctx.is_some_and(|c| c.melee));
    let shield = shield + crate::rules::query::resist(s, target, source); // Defenders, Protector
    // A Creep's shield against attacks from afar (the Guardian Bear's, L2455).
    let shield = shield
        + match (s.creep_def(target).and_then(|d| d.far_resist), source) {
            (Some((n, beyond)), Some(src))
                if ctx.is_some_and(|c| c.attack_or_opportunity)
                    && s.distance(src, target).is_some_and(|d| d > beyond) =>
            {
                n
            }
            _ => 0,
        };
    // A Resist lowered below nothing (Ward-Stripping Hex) counts as none.
    total.saturating_sub(s.amount(target, StatusKind::Resist).max(0)).saturating_sub(shield).max(0)
}

/// Whether a packet would take `target` to 0 HP or below.
pub fn would_take_out(s: &State, target: UnitIdx, amount: i32) -> bool {
    let total = adjusted(s, target, amount, None);
    let u = s.unit(target);
    u.hp - (total - u.ward).max(0) <= 0
}

/// Deals one packet of damage "at one time" to `target`, crediting `source`.
pub fn deal(
    cx: &mut Ctx,
    target: UnitIdx,
    amount: i32,
    source: Option<UnitIdx>,
    why: &str,
    ctx: Option<FromAttack>,
) -> Dealt {
    if !cx.s.unit(target).on_map() {
        return Dealt::default();
    }
    let bonded = bond_receiver(cx, target, "damage"); // Empathic Bond
    if bonded != target {
        cx.s.empathy.redirected = true; // once: two bonds cannot pass it back and forth
        deal(cx, bonded, amount, source, why, ctx);
        cx.s.empathy.redirected = false;
        return Dealt::default();
    }
    let amount = if crate::rules::query::shielded(cx.s, target, source) { 0 } else { amount };
    let total = adjusted_from(cx.s, target, amount, ctx, source);
    let total = (crate::engine::hooks::triggered(cx.s).resist_reaction)(cx, target, total);
    let total = (crate::engine::hooks::traps(cx.s).resist_once)(cx, target, total); // Improved Traps
    let special_before = cx.s.unit(target).special_ward;
    let was_bloodied = cx.s.is_bloodied(target);
    let u = cx.s.unit(target);
    let ward = if ctx.is_some_and(|c| c.pierce) { 0 } else { total.min(u.ward) };
    let (hp, hp_loss) = goon_hp(cx.s, target, total.saturating_sub(ward));
    cx.emit(Event::Damaged {
        unit: cx.s.who(target),
        amount: total,
        ward_lost: ward,
        hp,
        source: source.map(|s| cx.s.who(s)),
        why: why.into(),
    });
    (crate::engine::hooks::traps(cx.s).share_damage)(cx, target, total, hp);
    crate::engine::hooks::damage_dealt(cx, target, source); // K-CAI-1
    if hp <= 0 {
        // Death Ward answers a Take Out by an enemy's attack or Opportunity.
        let by_attack = ctx.is_some_and(|c| c.attack_or_opportunity);
        let wards = if by_attack { crate::rules::query::death_wards(cx.s, target, source) } else { Vec::new() };
        take_out(cx, target, source);
        crate::engine::hooks::taken_out_by_attack(cx, &wards, target, source);
    } else {
        if hp_loss > 0 && cx.s.is_bloodied(target) {
            bloodied_statuses(cx, target);
        }
        if let Some(src) = source {
            (crate::engine::hooks::features(cx.s).zap)(cx, target, src); // Electrified
        }
    }
    if cx.s.unit(target).special_ward < special_before {
        (crate::engine::hooks::features(cx.s).special_ward_lost)(cx, target); // Capacitive Ward
    }
    if hp_loss > 0 && (hp <= 0 || (!was_bloodied && hp <= cx.s.unit(target).max_hp / 2)) {
        (crate::engine::hooks::curses(cx.s).maker_bloodied)(cx, target); // Linked Doom
    }
    if total > 0 {
        (crate::engine::hooks::curses(cx.s).damaged)(cx, target); // Empathic Imposition
    }
    if hp_loss > 0 {
        (crate::engine::hooks::triggered(cx.s).took_damage)(cx, target); // Phoenix Elixir
    }
    Dealt { total, ward, hp: hp_loss }
}

/// The HP `target` is left with after losing `loss`, and what it lost. A Goon (K-CTYPE-4) is
/// not worn down: unhurt, damage over its threshold Takes it Out and any less wounds it (1 HP,
/// Bloodied); wounded, any damage Takes it Out.
fn goon_hp(s: &State, target: UnitIdx, loss: i32) -> (i32, i32) {
    let u = s.unit(target);
    if loss <= 0 || u.kind != UnitKind::Creep || !is_goon(s, target) {
        return (u.hp.saturating_sub(loss), loss);
    }
    let left = if u.hp >= u.max_hp && loss <= crate::content::creeps::GOON_THRESHOLD { 1 } else { 0 };
    (left, u.hp - left)
}

/// Damage nothing reduces (no Vulnerable, Resist or Ward): Costly Ward's price.
pub fn deal_unreduced(cx: &mut Ctx, target: UnitIdx, amount: i32, source: Option<UnitIdx>, why: &str) {
    if !cx.s.unit(target).on_map() || amount <= 0 {
        return;
    }
    let was_bloodied = cx.s.is_bloodied(target);
    let (hp, _) = goon_hp(cx.s, target, amount);
    cx.emit(Event::Damaged {
        unit: cx.s.who(target),
        amount,
        ward_lost: 0,
        hp,
        source: source.map(|s| cx.s.who(s)),
        why: why.into(),
    });
    if hp <= 0 {
        take_out(cx, target, source);
    } else if cx.s.is_bloodied(target) {
        bloodied_statuses(cx, target);
    }
    if hp <= 0 || (!was_bloodied && hp <= cx.s.unit(target).max_hp / 2) {
        (crate::engine::hooks::curses(cx.s).maker_bloodied)(cx, target); // Linked Doom
    }
    (crate::engine::hooks::curses(cx.s).damaged)(cx, target);
}

/// Statuses that grow while their bearer is Bloodied (Bloody Blade's Ongoing 1 becomes 2).
fn bloodied_statuses(cx: &mut Ctx, target: UnitIdx) {
    let grow: Vec<(crate::rules::statuses::Status, i32)> = cx
        .s
        .unit(target)
        .statuses
        .iter()
        .filter_map(|st| {
            let to = st
                .origin
                .and_then(|p| cx.s.powers.get(p).effect.iter().find(|e| e.status.as_deref() == Some(st.kind.name())))
                .and_then(|e| e.bloodied_amount)?;
            (to > st.amount).then_some((*st, to))
        })
        .collect();
    for (st, to) in grow {
        let name = st.origin.map(|p| cx.s.powers.get(p).name.clone()).unwrap_or_default();
        // The same status, grown: not a new one (an Ongoing gained on its own turn would bite).
        cx.emit(Event::StatusEnded { unit: cx.s.who(target), status: st, why: "grows as it is Bloodied".into() });
        let status = crate::rules::statuses::Status { amount: to, ..st };
        cx.emit(Event::StatusGained { unit: cx.s.who(target), status, label: name });
    }
}

fn is_goon(s: &State, u: UnitIdx) -> bool {
    s.creep_def(u).is_some_and(|d| d.kind == crate::content::creeps::CreepType::Goon)
}

/// Restores HP up to the maximum.
pub fn heal(cx: &mut Ctx, unit: UnitIdx, amount: i32, why: &str) {
    if crate::rules::query::empathy_copied(cx.s, unit, why) {
        return; // an Empath's copy gave it this already
    }
    let u = cx.s.unit(unit);
    let hp = (u.hp + amount).min(u.max_hp);
    // A wounded Goon healed at all is unhurt again (K-CTYPE-4: it has no HP to count up).
    let goon = is_goon(cx.s, unit);
    let hp = if goon && amount > 0 { u.max_hp } else { hp };
    if hp > u.hp {
        cx.emit(Event::Healed { unit: cx.s.who(unit), amount: hp - u.hp, hp, why: why.into() });
        crate::engine::hooks::healed(cx, unit, amount, why); // Empath
    }
}

/// A unit reaches 0 HP: it is Taken Out (K-DUN-1, K-DUN-3..5, K-ORB-10) and the taker scores
/// or takes a Strike (K-SCO-1, K-SCO-2, K-STK-3).
pub fn take_out(cx: &mut Ctx, unit: UnitIdx, by: Option<UnitIdx>) {
    if crate::rules::shades::becomes_shade(cx, unit, by) {
        return; // a Lost Soul stays on as a Shade while its Shadekeeper stands
    }
    let u = cx.s.unit(unit);
    let Some(pos) = u.pos else { return };
    if u.placed.is_some() {
        (crate::engine::hooks::traps(cx.s).destroyed)(cx, unit, by);
        return;
    }
    if (crate::engine::hooks::charms(cx.s).undying)(cx.s, unit) {
        cx.emit(Event::Note { text: format!("{} cannot be Taken Out yet: it stays up", u.id) });
        return;
    }
    let in_dungeon = cx.s.arena.footprint_in_dungeon(pos, u.size);
    cx.emit(Event::TakenOut { unit: cx.s.who(unit), by: by.map(|b| cx.s.who(b)), in_dungeon });
    crate::engine::hooks::unit_gone(cx, unit); // a Pest riding it lets go (the-pest)
    // K-ORB-10: orbs stay behind in its square.
    for o in cx.s.held_orbs(unit).collect::<Vec<_>>() {
        cx.emit(Event::OrbMoved {
            orb: cx.s.orbs[o as usize].id.to_string(),
            idx: o,
            to: OrbLoc::Ground { at: pos },
            why: format!("left behind at {pos}"),
        });
    }
    (crate::engine::hooks::brews(cx.s).drop_all)(cx, unit); // its Elixirs
    // K-DUN-3: every status goes, and so do the Grabs and Marks it was maintaining.
    for st in cx.s.unit(unit).statuses.clone() {
        cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "Taken Out".into() });
    }
    release_maintained(cx, unit, "its source was Taken Out");
    let (ward, start_ward, stowed, reversal) = {
        let u = cx.s.unit(unit);
        (u.ward, u.start_ward, u.stowed, u.reversal)
    };
    if ward != start_ward {
        cx.emit(Event::WardSet { unit: cx.s.who(unit), ward: start_ward, why: "restored on being Taken Out".into() });
    }
    if stowed {
        cx.emit(Event::Stowed { unit: cx.s.who(unit), stowed: false });
    }
    if reversal {
        cx.emit(Event::Reversal { unit: cx.s.who(unit), armed: false });
    }
    if cx.s.unit(unit).kind == UnitKind::Creep {
        // A Creep does not come back: no Dungeon, no HP restored, no power recharged (its
        // group's credit, K-SCO-5).
        let text = format!("{} is gone from the arena for good", cx.s.unit(unit).id);
        cx.emit(Event::Note { text });
    } else {
        restore(cx, unit, in_dungeon);
    }
    credit_take_out(cx, unit, by);
    after_take_out(cx, unit, pos, by);
}

/// K-DUN-3..5: an athlete Taken Out comes back whole (less a point of maximum inside the
/// Dungeon) with one spent Encounter power recharged.
fn restore(cx: &mut Ctx, unit: UnitIdx, in_dungeon: bool) {
    // K-DUN-4, K-DUN-5: full HP, but a Take Out inside the Dungeon costs a point of maximum.
    let u = cx.s.unit(unit);
    let max_hp = if in_dungeon { (u.max_hp - 1).max(1) } else { u.max_hp };
    cx.emit(Event::Restored { unit: cx.s.who(unit), max_hp, hp: max_hp });
    // K-DUN-3: recharge exactly one spent Encounter power.
    let rechargeable = crate::rules::query::recharge_options(cx.s, unit);
    match rechargeable.len() {
        0 => {}
        1 => {
            let p = cx.s.powers.find(&rechargeable[0].id).expect("a spent power");
            cx.emit(Event::EncounterRecharged {
                unit: cx.s.who(unit),
                power: p,
                name: cx.s.powers.get(p).name.clone(),
            });
        }
        _ => cx.push(Frame::Recharge { unit }),
    }
}

/// What follows any Take Out: the listeners, then the curses on it or by it.
fn after_take_out(cx: &mut Ctx, unit: UnitIdx, pos: fray_core::grid::Pos, by: Option<UnitIdx>) {
    // You're Mine ends with its maker, Enlarging Charm (back to 1x1 off the map), Corkscrew
    // Staff, Explosive Attachment (stays behind in its square), Speak Doom fires, a Seeking Hex
    // loses its quarry; every other curse on it goes, like its statuses (K-DUN-3).
    crate::engine::hooks::taken_out(cx, unit, pos, by);
    for i in (0..cx.s.curses.len()).rev() {
        let c = &cx.s.curses[i];
        if c.on == crate::engine::records::curses::CurseOn::MakerTurnStarts {
            // Favored Target lasts until its maker is Taken Out, whatever befalls the target.
            if c.maker == unit {
                cx.emit(Event::CurseEnded { index: i, why: "its maker was Taken Out".into() });
            }
        } else if c.target == unit && c.at.is_none() {
            cx.emit(Event::CurseEnded { index: i, why: "its target was Taken Out".into() });
        }
    }
}

/// Ends the Grabs, Marks and dominations `unit` maintains on others (K-ST-Incapacitated,
/// K-ST-Grabbed, K-ST-Marked).
pub fn release_maintained(cx: &mut Ctx, unit: UnitIdx, why: &str) {
    let mut ended = Vec::new();
    for v in cx.s.unit_indices() {
        for st in &cx.s.unit(v).statuses {
            if st.source == Some(unit)
                && matches!(st.kind, StatusKind::Grabbed | StatusKind::Marked | StatusKind::Dominated)
            {
                ended.push((v, *st));
            }
        }
    }
    for (v, st) in ended {
        cx.emit(Event::StatusEnded { unit: cx.s.who(v), status: st, why: why.into() });
    }
}

fn credit_take_out(cx: &mut Ctx, unit: UnitIdx, by: Option<UnitIdx>) {
    let Some(b) = by.map(|b| crate::rules::beasts::roller(cx.s, b)) else { return }; // a creature's Tamer
    let (victim, taker) = (cx.s.unit(unit), cx.s.unit(b));
    if taker.kind != UnitKind::Athlete || victim.kind != UnitKind::Athlete {
        return; // K-SCO-2: Creeps score nothing; Creep credit is the creeps' rules.
    }
    if taker.side == victim.side {
        // K-STK-3: taking out yourself or a teammate is a Strike (and no point, K-SCO-2).
        let total = taker.strikes + 1;
        let why =
            if b == unit { "took themselves out".to_string() } else { format!("took out teammate {}", victim.id) };
        cx.emit(Event::Strike { unit: cx.s.who(b), total, why });
        return;
    }
    let side = taker.side;
    score(cx, side, 1, Some(b), format!("took out {}", victim.id));
}

/// Empathic Bond: who receives damage or a negative status (`what`) meant for `target` — the
/// one of the bonded pair its Diviner named, while that one is on the map.
pub fn bond_receiver(cx: &mut Ctx, target: UnitIdx, what: &str) -> UnitIdx {
    if cx.s.empathy.redirected {
        return target;
    }
    let to =
        cx.s.curses
            .iter()
            .filter(|c| {
                c.on == crate::engine::records::curses::CurseOn::Bonded && (c.maker == target || c.target == target)
            })
            .find_map(|c| match c.value {
                1 => Some(c.maker),
                2 => Some(c.target),
                _ => None,
            });
    match to {
        Some(r) if r != target && cx.s.unit(r).on_map() => {
            let text =
                format!("Empathic Bond: {} takes the {what} meant for {}", cx.s.unit(r).id, cx.s.unit(target).id);
            cx.emit(Event::Note { text });
            r
        }
        _ => target,
    }
}
