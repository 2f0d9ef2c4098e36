//! Attacks (K-ROLL, K-MISS, K-MULTI, K-ADV, K-STK-1/2/5): the attack roll with Advantage and
//! Disadvantage, Miss Tokens spent after seeing the roll, Fierce and Guarded, the result table,
//! the Glancing Hit choice, damage with implement bonuses and Weakened, the Ward rule, and the
//! Effect line. Each target of a multi-target attack is rolled separately, in the attacker's
//! order, but only the first roll can give a Strike or a Miss Token.

pub use crate::content::hooks::ATTACK_EFFECT as EFFECT_HOOKS;
use crate::content::powers::{Effect, PowerDef, Targeting};
use crate::engine::events::{Event, Hit, RollMode};
pub use crate::engine::frames::rules::AttackFrame;
pub use crate::engine::frames::rules::Stage;
use crate::engine::frames::rules::{ForcedFrame, ForcedKind};
use crate::engine::kit::Rolls;
use crate::engine::kit::{Ctx, Flow, Frame};
use crate::engine::options::CritDoubles;
use crate::engine::state::{Implement, State, UnitIdx};
use crate::rules::damage::{self, FromAttack};
pub use crate::rules::query::duration_for;
pub use crate::rules::saves::combine;
pub use crate::rules::statuses::give::give_status;
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

impl AttackFrame {
    /// An attack with `power` on `targets`, not made with an Attack Action.
    pub fn new(attacker: UnitIdx, power: u16, targets: Vec<UnitIdx>, origin: Pos) -> Self {
        AttackFrame {
            declare: false,
            attacker,
            power,
            targets,
            next: 0,
            stage: Stage::Provoke,
            origin,
            first_done: false,
            via_action: false,
            evaded: false,
            granted_advantage: false,
            boost: None,
            gift: None,
            rider: None,
            disadvantage: false,
            effect_only: false,
            no_boost: false,
            brew: Vec::new(),
            fixed: None,
            peel: 0,
            peel_asked: false,
            focused: false,
            thrown: false,
            repeat: false,
            multi: false,
            later: false,
            crowd_done: false,
            warp: false,
        }
    }
}

/// Advantage, Disadvantage or neither for `attacker` against `target` (K-ADV-1..7, K-TER-6,
/// K-CONC-1..2); both cancel (rulings K-ADV-0).
pub fn roll_mode(
    s: &State,
    attacker: UnitIdx,
    target: UnitIdx,
    power: &PowerDef,
    origin: Pos,
    granted: bool,
) -> RollMode {
    combine(roll_adv_dis(s, attacker, target, power, origin, granted))
}

/// Whether anything gives `attacker` Advantage, and whether anything gives it Disadvantage,
/// against `target` (K-ADV-1..7, K-TER-6, K-CONC-1..2, lingering modifiers).
pub fn roll_adv_dis(
    s: &State,
    attacker: UnitIdx,
    target: UnitIdx,
    power: &PowerDef,
    origin: Pos,
    granted: bool,
) -> (bool, bool) {
    roll_adv_dis_at(s, attacker, target, power, origin, granted, false)
}

/// [`roll_adv_dis`] for an attack made `from_warp` (its `origin` the attacker's Source Warp,
/// `warp_origin`): flanking and cover are read from that square.
pub fn roll_adv_dis_at(
    s: &State,
    attacker: UnitIdx,
    target: UnitIdx,
    power: &PowerDef,
    origin: Pos,
    granted: bool,
    from_warp: bool,
) -> (bool, bool) {
    let melee = power.is_melee(s.unit(attacker).implement == Implement::Sword)
        && !crate::rules::query::thrown(s, attacker, target, power); // a thrown sword is ranged
    let mut adv = granted;
    let mut dis = false;
    let flanks = if from_warp { flanking_from(s, attacker, origin, 1, target) } else { flanking(s, attacker, target) };
    if melee && flanks {
        adv = true; // K-ADV-1
    }
    if melee && crate::rules::modifiers::melee_advantage(s, attacker, target) {
        adv = true; // Close Focus Charm
    }
    if melee && (s.has(target, StatusKind::Prone) || s.has(target, StatusKind::Blinded)) {
        adv = true; // K-ADV-2, K-ADV-4
    }
    if s.hidden_from(attacker, target) {
        adv = true; // K-ADV-3
    }
    if crate::rules::query::grapple_guarded(s, attacker, target) {
        dis = true; // the Imp Grappler holding someone else
    }
    let burst = matches!(power.target, Targeting::Burst { .. } | Targeting::Area { .. });
    let size = if burst || from_warp { 1 } else { s.unit(attacker).size };
    if crate::rules::cover::has_cover(s, origin, size, target)
        && !crate::rules::query::ignores_cover(s, attacker, power)
        && !crate::rules::cover::bead_clears_cover(s, attacker, target, origin, size)
    {
        dis = true; // K-ADV-5 (Ricochet Shot ignores it; Draw a Bead)
    }
    if !burst
        && crate::rules::cover::concealed_from(s, target, attacker)
        && !crate::rules::query::ignores_concealment(s, attacker, target, power)
        && !crate::rules::query::bead_ignores_concealment(s, attacker, target)
    {
        dis = true; // K-ADV-6: Ranged and Melee attacks
    }
    if let Some(crate::engine::records::control::Compulsion::Attack { disadvantage: true, .. }) =
        s.unit(attacker).compulsion
    {
        dis = true; // K-ST-Frenzied, K-ST-Panicked: a 2
    }
    if s.has(attacker, StatusKind::Blinded) || s.has(attacker, StatusKind::Restrained) || in_water(s, attacker) {
        dis = true; // K-ADV-4, K-ADV-7, K-TER-6
    }
    // What powers left behind ("your allies' attacks against it have Advantage").
    let (m_adv, m_dis, _) = crate::rules::modifiers::roll_flags(s, attacker, target);
    let (f_adv, f_dis) = crate::rules::query::fortune(s, attacker); // Coin of Fortune
    let dis = dis || crate::rules::query::burdened(s, attacker, target); // carrying a Pest (the-pest)
    (adv | m_adv | f_adv, dis | m_dis | f_dis)
}

fn in_water(s: &State, u: UnitIdx) -> bool {
    let un = s.unit(u);
    !s.has(u, StatusKind::Hovering)
        && un.pos.is_some_and(|p| {
            fray_core::grid::footprint(p, un.size).any(|q| s.arena.at(q) == crate::engine::arena::Terrain::Water)
        })
}

/// Whether an ally of `attacker` flanks `target` with it (K-ADV-1, K-DEF-3 Flanking): both
/// adjacent, on opposite sides or opposite corners. Stunned creatures cannot flank; flyers
/// and walkers do not flank together.
pub fn flanking(s: &State, attacker: UnitIdx, target: UnitIdx) -> bool {
    let Some(p) = s.unit(attacker).pos else { return false };
    flanking_from(s, attacker, p, s.unit(attacker).size, target)
}

/// [`flanking`] with the attacker taken as standing at `at` (its Source Warp's square,
/// `warp_origin`); the attacker's own body never flanks with it.
pub fn flanking_from(s: &State, attacker: UnitIdx, at: Pos, size: i32, target: UnitIdx) -> bool {
    let t = s.unit(target);
    let Some(tp) = t.pos else { return false };
    let rel_at = |p: Pos, sz: i32| {
        let axis = |a: i32, asz: i32, t0: i32| {
            if a + asz - 1 < t0 {
                -1
            } else if a > t0 + t.size - 1 {
                1
            } else {
                0
            }
        };
        (axis(p.x, sz, tp.x), axis(p.y, sz, tp.y))
    };
    let rel = |u: UnitIdx| rel_at(s.unit(u).pos.unwrap(), s.unit(u).size);
    if fray_core::geometry::distance(at, size, tp, t.size) != 1
        || s.has(attacker, StatusKind::Stunned)
        || crate::rules::opportunity::is_mob(s, target)
    {
        // K-CTYPE-8, K-ADV-1: a Mob cannot be flanked.
        return false;
    }
    let me = rel_at(at, size);
    let flying = s.has(attacker, StatusKind::Flying);
    s.units_on_map().any(|a| {
        a != attacker
            && a != target
            && !s.enemies(attacker, a)
            && crate::rules::query::takes_opportunities(s.unit(a)) // only creatures that fight flank
            && s.distance(a, target) == Some(1)
            && !s.has(a, StatusKind::Stunned)
            && s.has(a, StatusKind::Flying) == flying
            && rel(a) == (-me.0, -me.1)
    })
}

/// Whether `def` is a burst or area that can reach two or more squares of Mob `target`
/// (K-MULTI-6, K-CTYPE-8).
fn mob_area(s: &State, attacker: UnitIdx, origin: Pos, def: &PowerDef, target: UnitIdx) -> bool {
    let t = s.unit(target);
    if t.size < 2 || !crate::rules::opportunity::is_mob(s, target) {
        return false;
    }
    let Some(tp) = t.pos else { return false };
    match def.target {
        Targeting::Burst { radius } => {
            let asize = s.unit(attacker).size;
            let squares = (0..t.size).flat_map(|dy| (0..t.size).map(move |dx| Pos::new(tp.x + dx, tp.y + dy)));
            squares.filter(|&q| fray_core::geometry::distance(origin, asize, q, 1) <= radius).count() >= 2
        }
        Targeting::Area { size, .. } => size >= 2,
        _ => false,
    }
}

fn roll_dice(cx: &mut Ctx, attacker: UnitIdx, mode: RollMode) -> Result<(Vec<i32>, i32), RuleError> {
    let die = crate::engine::hooks::table(cx.s).attack_die();
    if let Some(v) = die.and_then(|f| f(cx, attacker)) {
        return Ok((vec![v], v)); // Foresight: no die is rolled
    }
    let a = cx.d6(Some(attacker))?;
    Ok(match mode {
        RollMode::Normal => (vec![a], a),
        RollMode::Advantage => {
            let b = cx.d6(Some(attacker))?;
            (vec![a, b], a.max(b))
        }
        RollMode::Disadvantage => {
            let b = cx.d6(Some(attacker))?;
            (vec![a, b], a.min(b))
        }
    })
}

/// Starts an attack: Opportunities it provokes come first, as Interrupts.
pub fn begin(cx: &mut Ctx, frame: AttackFrame) -> Result<(), RuleError> {
    let table = cx.s.powers.clone(); // shared: the power is read, not copied
    let def = table.get(frame.power);
    cx.emit(Event::PowerUsed {
        unit: cx.s.who(frame.attacker),
        power: def.name.clone(),
        targets: frame.targets.iter().map(|&t| cx.s.who(t)).collect(),
    });
    let attacker = frame.attacker;
    let power = frame.power;
    // Spread Fire's limit, K-CAI-1 (Creeps attacked, hit or miss).
    crate::engine::hooks::attack_declared(cx, attacker, &frame.targets, power);
    // A curse set off by its maker's turns is laid on the target as the attack is made, whatever
    // the roll (Favored Target).
    let line = def.effect_at(cx.s.unit(attacker).level).to_vec();
    for (i, e) in line.iter().enumerate() {
        if let Some(c) = e.curse.as_ref().filter(|c| crate::rules::curses::laid_on_use(c)) {
            for &t in &frame.targets {
                crate::rules::curses::lay(cx, c, attacker, t, power, i);
            }
        }
    }
    let targets = frame.targets.clone();
    cx.push(Frame::Attack(Box::new(frame)));
    crate::rules::curses::attack_begins(cx, attacker, &targets)?; // Creature Aegis
    // What the power does to its user first, whatever the roll.
    if !def.first.is_empty() {
        let first: Vec<crate::content::powers::Effect> =
            def.first.iter().map(|e| crate::content::powers::Effect { on_user: true, ..e.clone() }).collect();
        apply_effects(cx, attacker, attacker, power, &first)?;
    }
    Ok(())
}

/// Advances an attack. Frames its resolution queues (Opportunities' consequences, forced
/// movement, Interrupts) go above it and resolve first; it then carries on where it stopped.
pub fn step(cx: &mut Ctx, mut a: Box<AttackFrame>) -> Result<Flow, RuleError> {
    let table = cx.s.powers.clone(); // shared: the power is read, not copied
    let def = table.get(a.power);
    let base = cx.s.flow.len();
    loop {
        if !cx.s.unit(a.attacker).on_map() {
            return Ok(Flow::Continue); // Taken Out by an Interrupt: the attack is lost
        }
        match a.stage {
            Stage::Provoke => {
                if std::mem::take(&mut a.declare) {
                    // A Charge's attack is made once the run is over (K-CAI-1: hit or miss).
                    crate::engine::hooks::attack_declared(cx, a.attacker, &a.targets, a.power);
                }
                let from = a.warp.then_some(a.origin); // Source Warp
                let takers = crate::rules::opportunity::for_attack(
                    cx.s,
                    a.attacker,
                    def.uses_implement(),
                    def.rolls(),
                    &a.targets,
                    from,
                );
                for &(t, why) in &takers {
                    (crate::engine::hooks::triggered(cx.s).opportunity)(cx, t, a.attacker, why);
                    if !cx.s.unit(a.attacker).on_map() {
                        return Ok(Flow::Continue);
                    }
                }
                if def.is_attack() {
                    let already: Vec<UnitIdx> = takers.iter().map(|&(t, _)| t).collect();
                    (crate::engine::hooks::triggered(cx.s).retribution)(cx, a.attacker, &a.targets, &already);
                    if cx.s.unit(a.attacker).on_map() {
                        (crate::engine::hooks::triggered(cx.s).attacking)(cx, a.attacker);
                    }
                }
                a.stage = Stage::Roll;
            }
            Stage::Roll => {
                let Some(&target) = a.targets.get(a.next) else {
                    a.stage = Stage::Done;
                    continue;
                };
                if !cx.s.unit(target).on_map() {
                    a.next += 1;
                    continue;
                }
                a.thrown |= crate::rules::query::thrown(cx.s, a.attacker, target, def); // Throwing Sword
                if !def.rolls() {
                    apply_hit(cx, &mut a, def, target, true, true, 0)?;
                } else if let Some(v) = a.fixed {
                    cx.emit(Event::Note {
                        text: format!("the attack on {} counts as a roll of {v}", cx.s.unit(target).id),
                    });
                    settle(cx, &mut a, def, target, v, 0)?;
                } else if crate::rules::query::rolls_five(cx.s, target) {
                    // The Specialist's Wall: no die, the roll counts as a 5.
                    cx.emit(Event::Note {
                        text: format!("the attack on {} counts as a roll of 5", cx.s.unit(target).id),
                    });
                    settle(cx, &mut a, def, target, 5, 0)?;
                } else {
                    let (adv, dis) =
                        roll_adv_dis_at(cx.s, a.attacker, target, def, a.origin, a.granted_advantage, a.warp);
                    // You're Mine, and an attack a trigger burdens (Patient Gaze): Disadvantage.
                    let dis = dis || a.disadvantage || crate::rules::modifiers::spurned(cx.s, a.attacker, &a.targets);
                    let dis = dis || def.disadvantage; // Trick Shot
                    // Focus: the first implement attack after it has Advantage.
                    let focus = crate::rules::query::focus(cx.s, a.attacker, def);
                    let mode = combine((adv || focus.is_some(), dis));
                    let (_, _, used) = crate::rules::modifiers::roll_flags(cx.s, a.attacker, target);
                    if crate::rules::modifiers::auto_six(cx.s, a.attacker, target) {
                        // Dispersion: no die is rolled; the attack counts as a 6.
                        cx.emit(Event::Note { text: format!("{}'s attack counts as a 6", cx.s.unit(a.attacker).id) });
                        settle(cx, &mut a, def, target, 6, 0)?;
                        if cx.s.flow.len() > base {
                            cx.s.flow.insert(base, Frame::Attack(a));
                            return Ok(Flow::Continue);
                        }
                        continue;
                    }
                    let (dice, natural) = roll_dice(cx, a.attacker, mode)?;
                    let mut used = used;
                    if let Some(i) = focus {
                        a.focused = true;
                        used.push(i);
                        used.sort_unstable();
                        used.dedup();
                    }
                    crate::rules::modifiers::use_up(cx, used);
                    let rolled = [dice[0], dice.get(1).copied().unwrap_or(0)];
                    cx.emit(Event::AttackRolled {
                        attacker: cx.s.who(a.attacker),
                        target: cx.s.who(target),
                        dice,
                        natural,
                        mode,
                    });
                    // Luck Tokens: the attacker, then the target, may have the roll made again.
                    match (crate::engine::hooks::charms(cx.s).luck_chooser)(cx.s, a.attacker, target, None) {
                        Some(who) => a.stage = Stage::Luck { natural, mode, who, dice: rolled },
                        None => after_roll(cx, &mut a, def, target, natural, rolled, mode)?,
                    }
                }
            }
            Stage::Interrupted { value } => {
                let target = a.targets[a.next];
                resolve_roll(cx, &mut a, def, target, value)?;
            }
            Stage::Tokens { .. } | Stage::Glancing | Stage::Luck { .. } => {
                if cx.s.flow.len() > base {
                    cx.s.flow.insert(base, Frame::Attack(a));
                    return Ok(Flow::Continue);
                }
                cx.push(Frame::Attack(a));
                return Ok(Flow::Wait);
            }
            Stage::Done => {
                crate::engine::hooks::attack_done(cx, &a); // Ward Bash, Ward Burst, Electrified, Throwing Sword
                finish(cx, &a, def);
                // "...then shift 2 squares": once, after every target, whatever the rolls.
                if !def.after.is_empty() && cx.s.unit(a.attacker).on_map() {
                    let after: Vec<Effect> = def.after.iter().map(|e| Effect { on_user: true, ..e.clone() }).collect();
                    apply_effects(cx, a.attacker, a.attacker, a.power, &after)?;
                }
                return Ok(Flow::Continue);
            }
        }
        if cx.s.flow.len() > base {
            cx.s.flow.insert(base, Frame::Attack(a));
            return Ok(Flow::Continue);
        }
    }
}

/// K-ROLL-6: Fierce and Guarded apply after bonuses, and cancel each other.
pub fn fierce_guarded(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, value: i32, def: &PowerDef) -> i32 {
    let fierce = cx.s.has(attacker, StatusKind::Fierce);
    let guarded = cx.s.has(target, StatusKind::Guarded)
        || crate::rules::query::guarded(cx.s, attacker, target, def)
        || crate::rules::modifiers::targets_guarded(cx.s, attacker, target); // Stoneskin
    if fierce == guarded {
        return value;
    }
    let adjusted = match (fierce, value) {
        (true, 3) => 4,
        (true, 5) => 6,
        (false, 6) => 5,
        (false, 4) => 3,
        _ => value,
    };
    if adjusted != value {
        let why = if fierce { "Fierce" } else { "Guarded" };
        cx.emit(Event::RollAdjusted { target: cx.s.who(target), from: value, to: adjusted, why: why.into() });
    }
    adjusted
}

/// A roll of `roller` against `target` as `power` would make it, outside an attack's own
/// resolution (Defensive Fire): Advantage and Disadvantage, then Fierce and Guarded. It gives no
/// Strike or Miss Token (see rulings).
pub fn lone_roll(cx: &mut Ctx, roller: UnitIdx, target: UnitIdx, power: u16) -> Result<i32, RuleError> {
    let table = cx.s.powers.clone(); // shared: the power is read, not copied
    let def = table.get(power);
    let origin = cx.s.unit(roller).pos.unwrap();
    let mode = roll_mode(cx.s, roller, target, def, origin, false);
    let (dice, natural) = roll_dice(cx, roller, mode)?;
    cx.emit(Event::AttackRolled { attacker: cx.s.who(roller), target: cx.s.who(target), dice, natural, mode });
    Ok(fierce_guarded(cx, roller, target, natural, def))
}

/// What follows the die, once any Luck Token reroll is settled: a wand Charm Roll's 2, the
/// Strike for a natural 1, then Miss Tokens.
fn after_roll(
    cx: &mut Ctx,
    a: &mut AttackFrame,
    def: &PowerDef,
    target: UnitIdx,
    natural: i32,
    dice: [i32; 2],
    mode: RollMode,
) -> Result<(), RuleError> {
    let dice: Vec<i32> = dice.into_iter().filter(|&d| d > 0).collect();
    let read = (crate::engine::hooks::features(cx.s).read_roll)(
        cx.s,
        a.attacker,
        target,
        &dice,
        match mode {
            RollMode::Advantage => Some(true),
            RollMode::Disadvantage => Some(false),
            RollMode::Normal => None,
        },
    );
    let mut natural = (crate::engine::hooks::charms(cx.s).wand_reading)(cx, a.attacker, target, def, natural);
    if natural == 1 && !a.first_done {
        // K-STK-1, K-STK-2, K-STK-5: a natural 1 on the first roll is a Strike, tokens or not;
        // through a summoned creature, its Tamer's.
        let roller = crate::rules::beasts::roller(cx.s, a.attacker);
        let total = cx.s.unit(roller).strikes + 1;
        cx.emit(Event::Strike { unit: cx.s.who(roller), total, why: "rolled a natural 1".into() });
    }
    if let Some((value, why)) = read.filter(|&(v, _)| v != natural) {
        // K-ROLL-7: Duelist, Brawler, Team-Up read 2s as 5s.
        cx.emit(Event::RollAdjusted { target: cx.s.who(target), from: natural, to: value, why: why.into() });
        natural = value;
    }
    let focus = (crate::engine::hooks::features(cx.s).focus_bonus)(cx, a.attacker, target); // Focused Blade
    if focus > 0 && natural < 6 {
        let to = (natural + focus).min(6);
        cx.emit(Event::RollAdjusted { target: cx.s.who(target), from: natural, to, why: "Focused Blade".into() });
        natural = to;
    }
    if cx.s.unit(a.attacker).pc && cx.s.unit(a.attacker).miss_tokens > 0 && natural < 6 {
        a.stage = Stage::Tokens { natural };
        Ok(())
    } else {
        settle(cx, a, def, target, natural, 0)
    }
}

/// Reads a roll once Miss Tokens are decided: tokens, then Fierce and Guarded, then the table.
fn settle(
    cx: &mut Ctx,
    a: &mut AttackFrame,
    def: &PowerDef,
    target: UnitIdx,
    natural: i32,
    tokens: i32,
) -> Result<(), RuleError> {
    let mut value = natural;
    if tokens > 0 {
        // K-MISS-2, K-MISS-3: +1 each; on a natural 1 the first token makes it a 3.
        value = if natural == 1 { 3 + tokens - 1 } else { natural + tokens };
        value = value.min(6);
        let left = cx.s.unit(a.attacker).miss_tokens - tokens;
        cx.emit(Event::TokensSpent { unit: cx.s.who(a.attacker), count: tokens, roll: value, left });
    }
    let before = value;
    value = fierce_guarded(cx, a.attacker, target, value, def);
    value = crate::rules::team_traits::agile(cx, target, value, before != value); // Bagwung
    // Capacitive Ward (the attacker may spend tokens on the hit), then Ward Bash and Ward Burst
    // (peel the Special Ward for damage): asked after any Interrupt.
    let asked = Hit::from_roll(value) != Hit::Miss && crate::engine::hooks::hit_coming(cx, a, def);
    if asked {
        a.stage = Stage::Interrupted { value };
    }
    // Interrupts that act when the target "would be hit" come before the hit resolves.
    if Hit::from_roll(value) != Hit::Miss
        && (crate::engine::hooks::triggered(cx.s).would_be_hit)(cx, a.attacker, target)
    {
        a.stage = Stage::Interrupted { value };
        return Ok(());
    }
    if asked {
        return Ok(());
    }
    resolve_roll(cx, a, def, target, value)
}

fn resolve_roll(
    cx: &mut Ctx,
    a: &mut AttackFrame,
    def: &PowerDef,
    target: UnitIdx,
    value: i32,
) -> Result<(), RuleError> {
    let evaded = a.evaded;
    let hit = if evaded { Hit::Miss } else { Hit::from_roll(value) };
    cx.emit(Event::AttackResult { attacker: cx.s.who(a.attacker), target: cx.s.who(target), roll: value, hit });
    if hit != Hit::Miss && is_own_turn(cx.s, a.attacker) && !cx.s.unit(a.attacker).hits_this_turn.contains(&target) {
        cx.emit(Event::HitThisTurn { unit: cx.s.who(a.attacker), target: cx.s.who(target) });
    }
    // The roll's listeners: Path of Blades, Terror, Jinxer, Misfortune.
    let read = crate::engine::hooks::RollRead { attacker: a.attacker, target, value, hit: hit != Hit::Miss };
    crate::engine::hooks::roll_read(cx, &read)?;
    if !cx.s.unit(a.attacker).on_map() {
        a.next = a.targets.len(); // the curse Took the attacker Out: its attack is lost
        a.stage = Stage::Roll;
        return Ok(());
    }
    let first = !a.first_done;
    a.first_done = true;
    a.evaded = false;
    a.later = a.multi && !first; // K-MULTI-5: bonuses on the first roll only
    // K-ROLL-5, K-ROLE-3: the Role Boost reads the first roll of an attack, on 3-6.
    a.boost = (first && hit != Hit::Miss && !def.no_role_boost && !cx.s.unit(a.attacker).grant_no_boost && !a.no_boost)
        .then_some(value);
    // A rival Charmer's gifted boost rides this first roll, and is used up by it (L2831).
    if first && let Some(giver) = crate::rules::modifiers::take_gift(cx, a.attacker) {
        a.gift = (hit != Hit::Miss && (3..=6).contains(&value)).then_some(giver);
    }
    if def.charm.is_some() && hit != Hit::Miss {
        // A Charm Roll that hit: the charm table, then the Role Boost, used by the Charmer.
        (crate::engine::hooks::charms(cx.s).resolve)(cx, a.attacker, target, a.power, hit)?;
        (crate::engine::hooks::features(cx.s).after_effect)(cx, a.attacker, target, def, false); // Cheerful
        let boost = a.boost.take().and_then(|_| crate::rules::query::boost_of(cx.s, a.attacker));
        if let Some(b) = boost {
            if crate::rules::modifiers::gifts(cx.s, a.attacker, target) {
                crate::rules::modifiers::gift(cx, a.attacker, target, a.power); // a rival's (L2831)
            } else {
                crate::engine::hooks::role_boost(cx, b, a.attacker, target, false);
            }
        }
        a.next += 1;
        a.stage = Stage::Roll;
        return Ok(());
    }
    match hit {
        Hit::Miss => {
            // Distracting Wand: the wand's protection (K-OPP-11) comes with a miss too.
            if def.uses_implement()
                && crate::rules::query::has_advanced(
                    cx.s,
                    a.attacker,
                    crate::engine::records::advanced::Advanced::DistractingWand,
                )
                && is_own_turn(cx.s, a.attacker)
                && cx.s.enemies(a.attacker, target)
            {
                cx.emit(Event::WandHit { unit: cx.s.who(a.attacker), target: cx.s.who(target) });
            }
            a.focused = false;
            // K-MISS-1, K-MISS-5, K-MULTI-2: one token, first roll only, player characters only.
            let roller = crate::rules::beasts::roller(cx.s, a.attacker);
            if first && cx.s.unit(roller).pc {
                let total = cx.s.unit(roller).miss_tokens + 1;
                cx.emit(Event::MissToken { unit: cx.s.who(roller), total });
            }
            // The miss's listeners, in their order (K-MISS-7, Striker and Hunter on a 2,
            // Outflank, brews delivered, K-ST-Retaliate, Reflective Ward, Robes, Floor Portal).
            let brew = a.brew.clone();
            let missed = crate::engine::hooks::Missed {
                attacker: a.attacker,
                target,
                power: a.power,
                def,
                first,
                value,
                evaded,
                effect_only: a.effect_only,
                no_boost: a.no_boost,
                brew: &brew,
                targets: &a.targets.clone(),
            };
            crate::engine::hooks::attack_missed(cx, &missed)?;
            // The Pest (L1379): a miss on a riding Pest hits its host instead (see rulings).
            match crate::rules::query::redirect_to(cx.s, a.attacker, target, &a.targets).filter(|_| def.charm.is_none())
            {
                Some(host) if cx.s.unit(a.attacker).on_map() => {
                    let text =
                        format!("the attack that missed {} hits {} instead", cx.s.unit(target).id, cx.s.unit(host).id);
                    cx.emit(Event::Note { text });
                    apply_hit(cx, a, def, host, true, true, value)?;
                }
                _ => {
                    a.next += 1;
                    a.stage = Stage::Roll;
                }
            }
        }
        Hit::Glancing
            if def.damage.is_some()
                && (!def.effect.is_empty() || !a.brew.is_empty())
                && a.boost.is_some()
                && crate::rules::query::both_on_three(cx.s, a.attacker, target, def) =>
        {
            let text = format!("{}'s Striker Condition holds: the 3 deals damage and Effect", cx.s.unit(a.attacker).id);
            cx.emit(Event::Note { text });
            apply_hit(cx, a, def, target, true, true, value)?
        }
        Hit::Glancing if def.damage.is_some() && (!def.effect.is_empty() || !a.brew.is_empty()) => {
            a.stage = Stage::Glancing; // K-ROLL-1: the attacker chooses
        }
        Hit::Glancing => apply_hit(cx, a, def, target, def.damage.is_some(), def.damage.is_none(), value)?,
        Hit::Solid => apply_hit(cx, a, def, target, true, true, value)?,
        Hit::Critical => {
            a.stage = Stage::Roll;
            apply_damage_and_effect(cx, a, def, target, true, true, value)?;
        }
    }
    // Let's End This: the marked first attack is spent whatever it rolled; a 6 forces a save.
    if let Some(i) = crate::rules::modifiers::execution(cx.s, a.attacker, target) {
        let name = cx.s.powers.get(cx.s.modifiers[i].power).name.clone();
        cx.emit(Event::ModifierEnded { index: i, why: "its attack is made".into() });
        if value >= 6 && cx.s.unit(target).on_map() {
            if crate::rules::saves::saving_throw(cx, target, &name)? {
                let duration =
                    duration_for(cx.s, a.attacker, target, Some(crate::rules::statuses::Until::EndOfTargetsNextTurn));
                let status = Status {
                    kind: StatusKind::Distracted,
                    amount: 0,
                    source: Some(a.attacker),
                    origin: None,
                    duration,
                };
                give_status(cx, target, status, &name);
            } else {
                damage::take_out(cx, target, Some(a.attacker));
            }
        }
    }
    Ok(())
}

fn apply_hit(
    cx: &mut Ctx,
    a: &mut AttackFrame,
    def: &PowerDef,
    target: UnitIdx,
    damage: bool,
    effect: bool,
    roll: i32,
) -> Result<(), RuleError> {
    apply_damage_and_effect(cx, a, def, target, damage, effect, roll)
}

/// Damage then Effect (rulings K-ROLL-4): one packet of damage (damage line, doubled on a
/// Critical Hit, plus implement bonuses and Effect damage, halved if the attacker is
/// Weakened), then the Effect unless the Ward took it all (K-ST-Ward).
fn apply_damage_and_effect(
    cx: &mut Ctx,
    a: &mut AttackFrame,
    def: &PowerDef,
    target: UnitIdx,
    damage: bool,
    effect: bool,
    roll: i32,
) -> Result<(), RuleError> {
    let attacker = a.attacker;
    let queued_from = cx.s.flow.len(); // Reactions to the hit wait for what the hit queues
    let crit = roll >= 6; // a Critical Hit (K-ROLL-1); 0 for powers with no roll
    let damage = damage && !a.effect_only;
    if a.effect_only {
        a.boost = None;
    }
    // Extra damage on a condition ("if it was already Distracted") is judged before the hit's
    // damage; other primitives' conditions when the Effect applies, after it.
    let line = def.effect_at(cx.s.unit(attacker).level);
    let effects: Vec<crate::content::powers::Effect> = line
        .iter()
        .filter(|e| e.min_roll.is_none_or(|m| roll >= m))
        .map(|e| {
            if e.picks_by_roll {
                // The Amalgams: a 3 picks one line, a 4 two, a 5 or a 6 three.
                let picks = match roll {
                    ..=3 => 1,
                    4 => 2,
                    _ => 3,
                };
                crate::content::powers::Effect { picks: Some(picks), picks_by_roll: false, ..e.clone() }
            } else {
                e.clone()
            }
        })
        .filter(|e| e.to.is_none_or(|t| t.includes(cx.s, attacker, target)))
        .filter(|e| !(a.repeat && crate::rules::query::repeats(e))) // Rapid Fire repeats once
        .filter(|e| !e.only_damage() || e.applies_to(cx.s, attacker, target))
        .collect();
    let mut packet = 0;
    if damage && let Some(line) = def.damage {
        let line = line + if a.later { 0 } else { crate::rules::query::brew_line_bonus(cx.s, &a.brew) }; // an Encounter Potion
        // Multi-Sword, Multi-Staff: 1 less instead of the implement's 1 more (K-MULTI-5).
        let implement = if a.multi {
            -1
        } else if a.warp {
            warp_implement_bonus(cx.s, attacker, target, def, a.origin) // Source Warp
        } else {
            implement_bonus(cx.s, attacker, target, def)
        };
        // K-MULTI-6: a burst or area reaching several squares of a Mob doubles the base damage.
        let line = if mob_area(cx.s, attacker, a.origin, def, target) { line * 2 } else { line };
        let bonus = implement + crate::rules::query::physical_bonus(cx.s, attacker, def);
        let bonus = bonus + (crate::engine::hooks::taming(cx.s).sword_bonus)(cx, attacker, target); // through a creature
        packet = match (crit, cx.s.options.crit_doubles) {
            (true, CritDoubles::DamageLine) => line * 2 + bonus,
            (true, CritDoubles::AllDamage) => (line + bonus) * 2,
            (false, _) => line + bonus,
        }
        .max(0);
    }
    let mut save: Option<bool> = None;
    if effect {
        for e in &effects {
            if e.damage.is_some()
                && (e.unless_saved || e.if_saved)
                && shared_save(cx, &mut save, target, &def.name)? == e.unless_saved
            {
                continue;
            }
            packet += e.damage.unwrap_or(0);
            if let Some(extra) = e.damage_if_grabbed_by_you
                && cx.s.status_from(target, StatusKind::Grabbed, attacker).is_some()
            {
                packet += extra;
            }
        }
    }
    if std::mem::take(&mut a.focused) && damage && crate::rules::query::is_basic_implement(def) {
        packet += 1; // Focus: a focused basic implement attack deals 1 more
    }
    if a.effect_only {
        packet = 0; // not even the Effect line's own damage
    }
    let boost =
        a.boost.take().filter(|v| (3..=6).contains(v)).and_then(|_| crate::rules::query::boost_of(cx.s, attacker));
    let boost = boost.map(|b| crate::rules::query::refine(cx.s, b, attacker, target, def, roll, damage)); // Striker
    // K-ROLL-4: the boost's extra damage joins the hit's damage (Smasher).
    let boost_extra = match boost {
        Some(b) if damage => crate::rules::query::extra_damage(cx.s, b, attacker, target, roll),
        _ => 0,
    };
    let boost_damage = boost_extra > 0;
    packet += boost_extra;
    if !a.later {
        // K-MULTI-5: a spread attack's later rolls get none of these.
        packet +=
            (crate::engine::hooks::features(cx.s).capacitive_damage)(cx, attacker, damage && def.damage.is_some()); // Capacitive Ward
        packet += crate::rules::query::peel_damage(a, damage && def.damage.is_some()); // Ward Bash
    }
    if damage && def.damage.is_some() && !a.later {
        packet += crate::rules::query::boost_damage(cx.s, attacker, def); // Boost Square
    }
    if damage {
        packet += crate::rules::query::brew_edge_bonus(cx.s, attacker, def, &a.brew); // Potent Edge, level 5
    }
    if damage && (packet > 0 || def.damage.is_some()) && !a.later {
        packet += crate::rules::modifiers::extra_damage(cx, attacker, target); // Assault Charm
        packet += (crate::engine::hooks::charms(cx.s).enlarged_damage)(cx.s, attacker, target, def); // Enlarging Charm
    }
    if crate::rules::modifiers::deals_no_damage(cx.s, attacker, target) {
        packet = 0; // Dispersion
    }
    if cx.s.has(attacker, StatusKind::Weakened) {
        packet /= 2; // K-ST-Weakened: halve the whole attack's damage, rounding down
    }
    // A Potion's Special; Hurl Flask's splash damage around the target.
    let around = (crate::engine::hooks::brews(cx.s).on_hit)(cx, def, attacker, target, &a.brew.clone(), damage)?;
    let mut dealt = damage::Dealt::default();
    let dist = if a.warp {
        crate::rules::query::warp_distance(cx.s, a.origin, target) // Source Warp
    } else {
        cx.s.distance(attacker, target)
    };
    let target_at = cx.s.unit(target).pos; // where Forking Bolt forks from, even if Taken Out
    (crate::engine::hooks::warps(cx.s).on_hit)(cx, attacker, target, def); // Floor Portal's trap, where the target stands
    if packet > 0
        || (damage && def.damage.is_some() && !crate::rules::modifiers::deals_no_damage(cx.s, attacker, target))
    {
        let pierce = crate::rules::query::pierces(cx.s, attacker, def); // Piercing Shot
        dealt = damage::deal(
            cx,
            target,
            packet,
            Some(attacker),
            &def.name,
            Some(FromAttack {
                attack_or_opportunity: true,
                pierce,
                melee: def.is_melee(cx.s.unit(attacker).implement == Implement::Sword)
                    && !crate::rules::query::thrown(cx.s, attacker, target, def),
            }),
        );
    }
    if def.uses_implement()
        && cx.s.unit(attacker).implement == Implement::Wand
        && is_own_turn(cx.s, attacker)
        && cx.s.enemies(attacker, target)
    {
        cx.emit(Event::WandHit { unit: cx.s.who(attacker), target: cx.s.who(target) }); // K-OPP-11
    }
    // Piercing Wand: emptying the target's Ward costs it 1 more, on its HP.
    let piercing = def.uses_implement()
        && crate::rules::query::has_advanced(cx.s, attacker, crate::engine::records::advanced::Advanced::PiercingWand);
    if piercing && dealt.ward > 0 && cx.s.unit(target).ward == 0 && cx.s.unit(target).on_map() {
        damage::deal_unreduced(cx, target, 1, Some(attacker), "Piercing Wand");
    }
    retaliate(cx, target, attacker);
    echo(cx, attacker, target)?;
    // Spellwarp Sniper, Portal Brawler, Status-Thief, Guardless Blade: queued below the
    // Effect's own moves.
    (crate::engine::hooks::features(cx.s).on_hit)(cx, attacker, target, dist);
    (crate::engine::hooks::features(cx.s).on_hit_blade)(cx, attacker, target, def);
    if dealt.total > 0 {
        (crate::engine::hooks::features(cx.s).on_damaged)(cx, target, attacker);
    }
    if effect && (!dealt.only_ward() || piercing) {
        // The damage primitives are in the packet already; the rest apply now. A target the
        // damage Took Out is gone: only what the Effect gives the user still happens ("if the
        // first attack Took Out the target, aim the second at another").
        let crowd_line = effects.clone(); // Crowd Control spreads the whole line
        let gone = !cx.s.unit(target).on_map();
        let after_hit: Vec<crate::content::hooks::EffectHook> = effects
            .iter()
            .filter_map(|e| e.hook)
            .filter(|&h| crate::engine::hooks::table(cx.s).after_hit(h).is_some())
            .collect();
        let rest: Vec<crate::content::powers::Effect> = effects
            .into_iter()
            .filter(|e| {
                !e.only_damage()
                    && (!gone || e.on_user || e.curse.as_ref().is_some_and(crate::rules::curses::fires_on_taken_out))
            })
            .map(|e| crate::content::powers::Effect { damage: None, damage_if_grabbed_by_you: None, ..e })
            .collect();
        // "The target saves; below your attack roll, it is Taken Out" (Perfect Shot).
        for e in rest.iter().filter(|e| e.hook.as_deref() == Some("save-below-roll-takes-out")) {
            if cx.s.unit(target).on_map() && e.applies_to(cx.s, attacker, target) {
                let (save_roll, _) = crate::rules::saves::saving_roll(cx, target, &def.name)?;
                if save_roll < roll {
                    cx.emit(Event::Note {
                        text: format!(
                            "{}'s save ({save_roll}) is below the attack roll ({roll})",
                            cx.s.unit(target).id
                        ),
                    });
                    damage::take_out(cx, target, Some(attacker));
                }
            }
        }
        // "The target grants an Opportunity to all adjacent characters other than you" (Ambush Blade).
        for e in rest.iter().filter(|e| e.hook.as_deref() == Some("opportunities-from-adjacent")) {
            if e.applies_to(cx.s, attacker, target) {
                for t in cx.s.units_on_map().collect::<Vec<_>>() {
                    if t != attacker
                        && cx.s.unit(target).on_map()
                        && cx.s.distance(t, target) == Some(1)
                        && crate::rules::opportunity::may_take(cx.s, t, target)
                    {
                        crate::rules::opportunity::take(cx, t, target, &format!("{} opens its guard", def.name));
                    }
                }
            }
        }
        let crowd_at = cx.s.flow.len();
        apply_effects_saved(cx, attacker, target, target, a.power, &rest, save)?;
        if !gone && !a.crowd_done {
            a.crowd_done = (crate::engine::hooks::defender_controller(cx.s).crowd_control)(
                cx,
                attacker,
                target,
                a.power,
                &a.targets,
                &crowd_line,
                crowd_at,
            );
        }
        (crate::engine::hooks::brews(cx.s).deliver)(cx, attacker, target, &a.brew.clone(), &around)?;
        (crate::engine::hooks::brews(cx.s).blade_used)(cx, attacker, def); // Potent Edge
        (crate::engine::hooks::features(cx.s).after_effect)(cx, attacker, target, def, false); // Cheerful
        for &h in &after_hit {
            // Rapid Fire, Forking Bolt
            let f = crate::engine::hooks::table(cx.s).after_hit(h).expect("registered");
            f(
                cx,
                &crate::engine::hooks::AfterHit {
                    hook: h.name(),
                    user: attacker,
                    target,
                    at: target_at,
                    power: a.power,
                },
            );
        }
    } else if effect && dealt.only_ward() {
        cx.emit(Event::Note {
            text: format!("{}'s Ward took all the damage: the Effect does not apply (K-ST-Ward)", cx.s.unit(target).id),
        });
    }
    if let Some(b) = boost
        && cx.s.unit(attacker).on_map()
    {
        crate::engine::hooks::role_boost(cx, b, attacker, target, boost_damage);
    }
    // A rival Charmer's gifted boost, after the attacker's own; the Charmer is its source.
    if let Some(giver) = a.gift.take()
        && cx.s.unit(giver).on_map()
        && cx.s.unit(target).on_map()
        && let Some(b) = crate::rules::query::boost_of(cx.s, giver)
    {
        cx.emit(Event::Note {
            text: format!("{} uses the Role Boost {} gave it", cx.s.unit(attacker).id, cx.s.unit(giver).id),
        });
        crate::engine::hooks::role_boost(cx, b, giver, target, false);
    }
    if let Some(r) = a.rider {
        (crate::engine::hooks::triggered(cx.s).rider)(cx, attacker, target, r);
    }
    if a.warp {
        aim_forced_from_warp(cx, queued_from, attacker, a.origin); // pushes from the warp
    }
    // The hit's listeners: Interrupts and Reactions to being hit offered (K-ACT-7), Ugnatio's
    // Preservation Charm, Absorbing Robes, Empathic Wave.
    let hit = crate::engine::hooks::Hit { attacker, target, def, below: queued_from };
    crate::engine::hooks::attack_hit(cx, &hit)?;
    a.next += 1;
    a.stage = Stage::Roll;
    Ok(())
}

/// Echoing Shot: each hit by `attacker` on a target burning with its echoing status makes that
/// status's damage land at once, then the target saves against it.
fn echo(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx) -> Result<(), RuleError> {
    let echoing: Vec<Status> =
        cx.s.unit(target)
            .statuses
            .iter()
            .filter(|st| {
                st.kind == StatusKind::Ongoing
                    && st.source == Some(attacker)
                    && st.origin.is_some_and(|p| cx.s.powers.get(p).effect.iter().any(|e| e.echo))
            })
            .copied()
            .collect();
    for st in echoing {
        if !cx.s.unit(target).on_map() {
            break;
        }
        let name = cx.s.powers.get(st.origin.unwrap()).name.clone();
        damage::deal(cx, target, st.amount, Some(attacker), &format!("{name} echoes"), None);
        if cx.s.unit(target).on_map() && crate::rules::saves::saving_throw(cx, target, &name)? {
            cx.emit(Event::StatusEnded { unit: cx.s.who(target), status: st, why: "saved".into() });
        }
    }
    Ok(())
}

fn is_own_turn(s: &State, u: UnitIdx) -> bool {
    s.current() == Some(u)
}

/// Implement bonuses on the damage line (K-IMP-5, K-IMP-7).
pub fn implement_bonus(s: &State, attacker: UnitIdx, target: UnitIdx, def: &PowerDef) -> i32 {
    if let Some(bonus) = crate::rules::beasts::implement_bonus(s, attacker, def) {
        return bonus; // through a summoned creature (L1673)
    }
    if !def.uses_implement() {
        return 0;
    }
    match s.unit(attacker).implement {
        // Revelation lets its owner pick any range for a target in its zone.
        Implement::Staff
            if s.distance(attacker, target).is_some_and(|d| d >= 3)
                || crate::rules::query::revealed_to(s, attacker, target) =>
        {
            1
        }
        // K-IMP-7, with the Duelling Sword and the Parrying Wand (K-AIMP); none when thrown.
        Implement::Sword
            if crate::rules::query::sword_bonus_applies(s, attacker, target)
                && !crate::rules::query::thrown(s, attacker, target, def) =>
        {
            1
        }
        _ => 0,
    }
}

/// K-ST-Retaliate: hit or missed by an attack, deal N to the attacker.
fn retaliate(cx: &mut Ctx, target: UnitIdx, attacker: UnitIdx) {
    let n = cx.s.amount(target, StatusKind::Retaliate);
    if n > 0 && cx.s.unit(target).on_map() && target != attacker {
        damage::deal(cx, attacker, n, Some(target), "Retaliate", None);
    }
}

fn finish(cx: &mut Ctx, a: &AttackFrame, def: &PowerDef) {
    let u = a.attacker;
    // Electrified and Throwing Sword are AttackDone listeners, run just before this.
    // K-CONC-4: "Hidden until you attack" lasts until the attack has fully resolved.
    let until_attack: Vec<Status> =
        cx.s.unit(u)
            .statuses
            .iter()
            .filter(|s| s.duration == Duration::Other(crate::rules::statuses::Lingers::UntilAttack))
            .copied()
            .collect();
    for st in until_attack {
        cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: "it attacked".into() });
    }
    if def.is_attack() {
        crate::engine::hooks::attacked(cx, u); // Hide, Ghost Walk
    }
    // K-ACT-5, K-IMP-6, K-IMP-8: a staff or sword Attack Action implement power ends the turn.
    let imp = cx.s.unit(u).implement;
    let compelled = matches!(cx.s.unit(u).compulsion, Some(crate::engine::records::control::Compulsion::Attack { .. }));
    if compelled {
        // K-ST-Frenzied ends the turn; K-ST-Panicked's attack does not, the creature flees.
        crate::rules::control::after_attack(cx, u);
    } else if a.via_action
        && def.uses_implement()
        && matches!(imp, Implement::Staff | Implement::Sword)
        && cx.s.unit(u).on_map()
        && is_own_turn(cx.s, u)
        && !cx.s.unit(u).actions.keep_turn
    // Lightning Elixir
    {
        cx.emit(Event::TurnCutShort {
            unit: cx.s.who(u),
            why: format!("a {} implement attack ends the turn", imp.name()),
        });
    }
}

/// Applies Effect primitives from `user`'s power to `target`. Forced movement is queued as
/// frames that resolve before the attack goes on, in the order listed.
pub fn apply_effects(
    cx: &mut Ctx,
    user: UnitIdx,
    target: UnitIdx,
    power: u16,
    effects: &[Effect],
) -> Result<(), RuleError> {
    apply_effects_saved(cx, user, target, target, power, effects, None)
}

/// Applies a nested Effect line (a `pick`'s or a `one-of` option's) to `target`, for a power whose
/// own target is `power_target`.
pub fn apply_nested(
    cx: &mut Ctx,
    user: UnitIdx,
    target: UnitIdx,
    power_target: UnitIdx,
    power: u16,
    effects: &[Effect],
) -> Result<(), RuleError> {
    apply_effects_saved(cx, user, target, power_target, power, effects, None)
}

/// Creatures a `pick` may name.
pub fn pick_candidates(
    s: &State,
    user: UnitIdx,
    power_target: UnitIdx,
    pick: &crate::content::powers::Pick,
) -> Vec<UnitIdx> {
    use crate::content::powers::PickWho;
    use crate::rules::modifiers::Party;
    let near: Vec<UnitIdx> = if pick.near.is_empty() {
        vec![user]
    } else {
        pick.near
            .iter()
            .filter_map(|p| match p {
                Party::You => Some(user),
                Party::Target | Party::PowerTarget => Some(power_target),
                _ => None,
            })
            .collect()
    };
    s.units_on_map()
        .filter(|&t| match pick.who {
            PickWho::Ally => t != user && !s.enemies(user, t),
            PickWho::YouOrAlly => !s.enemies(user, t),
            PickWho::Enemy => s.enemies(user, t),
        })
        .filter(|&t| !(pick.other && t == power_target))
        .filter(|&t| s.unit(t).kind != crate::engine::state::UnitKind::Conjured) // K-DEF-5
        .filter(|&t| near.iter().any(|&n| n == t || s.distance(n, t).is_some_and(|d| d <= pick.within)))
        .filter(|&t| {
            !pick.sight
                || t == user
                || s.unit(user).pos.is_some_and(|p| {
                    crate::rules::cover::shot(s, p, s.unit(user).size, t) != fray_core::sight::Sight::Blocked
                })
        })
        .collect()
}

/// One Effect line rolls one save, whichever of its primitives asks first (K-SAVE-1).
fn shared_save(cx: &mut Ctx, save: &mut Option<bool>, target: UnitIdx, name: &str) -> Result<bool, RuleError> {
    if let Some(s) = *save {
        return Ok(s);
    }
    let s = crate::rules::saves::saving_throw(cx, target, name)?;
    *save = Some(s);
    Ok(s)
}

/// [`apply_effects`], with the Effect line's save already rolled (`save`), if it was.
fn apply_effects_saved(
    cx: &mut Ctx,
    user: UnitIdx,
    target: UnitIdx,
    power_target: UnitIdx,
    power: u16,
    effects: &[Effect],
    mut save: Option<bool>,
) -> Result<(), RuleError> {
    let name = cx.s.powers.get(power).name.clone();
    let mut queued = Vec::new();
    for e in effects {
        if !e.applies_to(cx.s, user, target) {
            continue;
        }
        // "The target saves; on a failure...": the primitive needs the save to fail (K-SAVE-1);
        // "...if it succeeds" needs it to succeed.
        if (e.unless_saved || e.if_saved)
            && !e.only_damage()
            && shared_save(cx, &mut save, target, &name)? == e.unless_saved
        {
            continue;
        }
        if let Some(c) = e.curse.as_ref().filter(|c| !crate::rules::curses::laid_on_use(c)) {
            if cx.s.unit(target).on_map() {
                let index = crate::rules::curses::index_of(cx.s, power, user, e);
                crate::rules::curses::lay(cx, c, user, target, power, index);
            } else if crate::rules::curses::fires_on_taken_out(c) {
                // Taken Out by this very attack ("including by this attack"): the user took it out.
                let effect = c.effect.clone();
                apply_effects_saved(cx, user, user, target, power, &effect, None)?;
            }
        }
        if let Some(n) = e.unreduced_damage {
            damage::deal_unreduced(cx, target, n, Some(user), &name);
        }
        if let Some(n) = e.miss_tokens
            && cx.s.unit(target).pc
            && n > 0
        {
            let total = cx.s.unit(target).miss_tokens + n;
            cx.emit(Event::MissToken { unit: cx.s.who(target), total });
        }
        if let Some(m) = &e.modifier {
            let modifier = crate::rules::modifiers::lay(cx.s, m, user, target, power_target, power);
            cx.emit(Event::ModifierAdded { name: name.clone(), modifier });
        }
        if !e.one_of.is_empty() {
            let chooser = if e.chooser == Some(crate::rules::modifiers::Party::Target) { target } else { user };
            let picks = e.picks.unwrap_or(1).max(1);
            queued.push(Frame::ChooseEffect {
                chooser,
                user,
                target,
                power_target,
                power,
                options: e.one_of.clone(),
                picks,
            });
        }
        if let Some(p) = &e.pick
            && !pick_candidates(cx.s, user, power_target, p).is_empty()
        {
            queued.push(Frame::Pick { user, power_target, power, pick: p.clone() });
        }
        // Damage in a nested line (a pick's, an option's) is dealt here; the hit's own damage
        // primitives were folded into its packet before this.
        if let Some(d) = e.damage
            && d > 0
            && cx.s.unit(target).on_map()
        {
            damage::deal(cx, target, d, Some(user), &name, None);
        }
        // "You gain...": statuses, Ward and healing go to the user.
        let (target, source) = if e.on_user { (user, user) } else { (target, user) };
        if let Some(st) = &e.status {
            let kind = StatusKind::parse(st).expect("checked on load");
            if kind == StatusKind::Grabbed && crate::rules::movement::grabbed_by(cx.s, user).count() >= 2 {
                cx.emit(Event::Note {
                    text: format!(
                        "{} already holds two creatures and cannot Grab another (K-ST-Grabbed)",
                        cx.s.unit(user).id
                    ),
                });
            } else {
                let bloodied = e.bloodied_amount.filter(|_| cx.s.is_bloodied(target));
                let status = Status {
                    kind,
                    amount: bloodied.or(e.amount).unwrap_or(0),
                    source: Some(source),
                    origin: Some(power),
                    duration: duration_for(cx.s, user, target, e.until),
                };
                give_status(cx, target, status, &name);
            }
        }
        if let Some(w) = e.ward
            && w < 0
        {
            // Ward-Stripping Hex: the Special Ward goes first.
            let amount = (-w).min(cx.s.unit(target).ward);
            if amount > 0 {
                cx.emit(Event::WardLost { unit: cx.s.who(target), amount, why: name.clone() });
            }
        } else if let Some(w) = e.ward
            && !crate::rules::query::empathy_copied(cx.s, target, &name)
        {
            let ward = (cx.s.unit(target).ward + w).max(0);
            cx.emit(Event::WardSet { unit: cx.s.who(target), ward, why: name.clone() });
            crate::engine::hooks::ward_gained(cx, target, w, &name); // Empath
        }
        if let Some(h) = e.heal {
            damage::heal(cx, target, h, &name);
        }
        for (n, kind) in [
            (e.push, ForcedKind::Push),
            (e.pull, ForcedKind::Pull),
            (e.slide, ForcedKind::Slide),
            (e.throw, ForcedKind::Throw),
            (e.teleport, ForcedKind::Teleport),
        ] {
            if let Some(n) = n {
                queued.push(Frame::Forced(ForcedFrame::new(cx.s, user, target, kind, n)));
            }
        }
        if e.banish && crate::rules::query::movable(cx.s.unit(target)) {
            queued.push(Frame::Banish { unit: target, by: user });
        }
        if e.grant_attack && crate::rules::query::takes_actions(cx.s.unit(target)) {
            queued.push(Frame::Granted { unit: target, by: user });
        }
        if let Some(n) = e.shift
            && n > 0
            && crate::rules::query::takes_actions(cx.s.unit(target))
        {
            queued.push(Frame::ShiftSelf { unit: target, left: n });
        }
        if e.grant_move && cx.s.unit(target).on_map() && crate::rules::query::takes_actions(cx.s.unit(target)) {
            // Right after it, the end of the grant clears it whatever happens (queued frames
            // run in the order queued).
            cx.emit(Event::MoveGranted { unit: cx.s.who(target), by: Some(cx.s.who(user)) });
            queued.push(Frame::GrantedMove { unit: target, by: user });
            queued.push(Frame::GrantEnd { unit: target });
        }
        if e.lose_next_move {
            let who = if e.on_user { user } else { target };
            cx.emit(Event::MoveForfeit { unit: cx.s.who(who), armed: true });
        }
        if let Some(g) = &e.grant {
            let unit = if e.on_user { user } else { target };
            queued.push(Frame::GrantedAttack { unit, by: user, power_target, terms: g.clone() });
        }
        // An Effect hook: the one registered under its name, else the default (brews).
        if let Some(h) = e.hook
            && let Some(f) = crate::engine::hooks::table(cx.s).effect(h)
        {
            let args =
                crate::engine::hooks::EffectUse { hook: h.name(), amount: e.amount, user, target, power_target, power };
            f(cx, &args)?;
        }
        if e.hook.as_deref() == Some("take-out") {
            damage::take_out(cx, target, Some(user)); // Death Ward
        }
        if let Some(n) = e.teleport_self {
            queued.push(Frame::TeleportSelf { unit: user, range: n });
        }
        if let Some(n) = e.shift_self
            && n > 0
        {
            queued.push(Frame::ShiftSelf { unit: user, left: n });
        }
    }
    for f in queued.into_iter().rev() {
        cx.push(f);
    }
    Ok(())
}

/// The decision an attack waits on.
pub fn question(s: &State, a: &AttackFrame) -> Option<(UnitIdx, &'static str, String, Vec<DecisionOption>)> {
    let who = &s.unit(a.attacker).id;
    match a.stage {
        Stage::Tokens { natural } => {
            let have = s.unit(a.attacker).miss_tokens;
            let useful = if natural == 1 { 4 } else { 6 - natural };
            let options = (0..=have.min(useful))
                .map(|n| {
                    let value = if n == 0 {
                        natural
                    } else if natural == 1 {
                        (2 + n).min(6)
                    } else {
                        (natural + n).min(6)
                    };
                    DecisionOption::new(n.to_string(), format!("spend {n}: the roll counts as {value}"))
                })
                .collect();
            Some((a.attacker, "miss-tokens", format!("{who} rolled {natural}: spend Miss Tokens?"), options))
        }
        Stage::Luck { natural, who, .. } => Some((
            who,
            "luck",
            format!(
                "{}: {who} rolled {natural} — spend a Luck Token to have it rolled again?",
                s.unit(who).id,
                who = s.unit(a.attacker).id
            ),
            vec![
                DecisionOption::new("reroll", "spend a Luck Token: roll again"),
                DecisionOption::new("keep", "keep the roll"),
            ],
        )),
        Stage::Glancing => Some((
            a.attacker,
            "glancing",
            format!("{who}: Glancing Hit — deal the damage or apply the Effect?"),
            vec![DecisionOption::new("damage", "deal the damage"), DecisionOption::new("effect", "apply the Effect")],
        )),
        _ => None,
    }
}

/// Answers an attack's decision.
pub fn answer(cx: &mut Ctx, mut a: Box<AttackFrame>, option: &str) -> Result<(), RuleError> {
    let base = cx.s.flow.len();
    let table = cx.s.powers.clone(); // shared: the power is read, not copied
    let def = table.get(a.power);
    let target = a.targets[a.next];
    match a.stage {
        Stage::Tokens { natural } => {
            let n: i32 = option.parse().map_err(|_| RuleError::malformed("answer with a number of tokens"))?;
            settle(cx, &mut a, def, target, natural, n)?;
        }
        Stage::Luck { natural, mode, who, dice } => {
            let (mut natural, mut dice) = (natural, dice);
            if option == "reroll" {
                let total = cx.s.unit(who).charmed.luck_tokens - 1;
                cx.emit(Event::LuckTokens { unit: cx.s.who(who), total, why: "spent on a reroll".into() });
                let (rolled, n) = roll_dice(cx, a.attacker, mode)?;
                dice = [rolled[0], rolled.get(1).copied().unwrap_or(0)];
                let (attacker, t) = (cx.s.who(a.attacker), cx.s.who(target));
                cx.emit(Event::AttackRolled { attacker, target: t, dice: rolled, natural: n, mode });
                natural = n;
            }
            match (crate::engine::hooks::charms(cx.s).luck_chooser)(cx.s, a.attacker, target, Some(who)) {
                Some(next) => a.stage = Stage::Luck { natural, mode, who: next, dice },
                None => after_roll(cx, &mut a, def, target, natural, dice, mode)?,
            }
        }
        Stage::Glancing => {
            cx.emit(Event::GlancingChoice { attacker: cx.s.who(a.attacker), choice: option.into() });
            apply_hit(cx, &mut a, def, target, option == "damage", option == "effect", 3)?;
        }
        _ => {}
    }
    cx.s.flow.insert(base, Frame::Attack(a));
    Ok(())
}

/// K-ST-Retaliate on a miss (a hit calls it from the hit).
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.on_missed(50, "K-ST-Retaliate", |cx, m| {
        retaliate(cx, m.target, m.attacker);
        Ok(())
    });
}

/// The implement's damage bonus for an attack from the Source Warp at `at`: a staff's +1 counts
/// its 3 squares from the warp (K-IMP-5); the rest as usual.
pub fn warp_implement_bonus(s: &State, attacker: UnitIdx, target: UnitIdx, def: &PowerDef, at: Pos) -> i32 {
    if def.uses_implement() && s.unit(attacker).implement == Implement::Staff {
        let far = crate::rules::query::warp_distance(s, at, target).is_some_and(|d| d >= 3);
        return i32::from(far || crate::rules::query::revealed_to(s, attacker, target));
    }
    implement_bonus(s, attacker, target, def)
}

/// Pushes and pulls the attack queued (frames above `since`) are made away from or toward the
/// Source Warp's square, not the Porter's body.
pub fn aim_forced_from_warp(cx: &mut Ctx, since: usize, attacker: UnitIdx, at: Pos) {
    for f in cx.s.flow.iter_mut().skip(since) {
        if let Frame::Forced(f) = f
            && f.mover == attacker
        {
            f.origin = at;
        }
    }
}
