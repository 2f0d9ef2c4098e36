//! Class features in play (K-CHAR-2, K-PROG-5): each unit carries the features it has, resolved
//! at setup into [`Feature`] values (a Shivering Sword also carries the spells it learned), and
//! the rule areas ask this module at a few points: how a die reads (Duelist, Brawler, Team-Up,
//! Focused Blade, a Seer's foreseen result), what a roll's result does (Terror, Reflective Ward,
//! Sword Hold), what a hit does afterwards (Spellwarp Sniper, Portal Brawler, Status-Thief,
//! Guardless Blade, Cheerful), what an attack ignores (Piercing, Ricochet and Seeking Shot, a
//! Scryer's lock), what damage does (Special Ward, Capacitive Ward, Electrified, Directional
//! Shield), the start and end of turns and rounds (Whirling, Special Ward, Lock On, Seer), and the
//! numbers a feature changes (reach, range, speed, Regenerate, Hovering, Guarded). Questions wait
//! on the stack as [`FeatureFrame`]s. Features listed in the class files but not played yet are
//! carried as [`Feature::Listed`]: shown, never applied.

use crate::content::Content;
pub use crate::content::hooks::FEATURES_POWER as POWER_HOOKS;
use crate::content::powers::PowerDef;
use crate::engine::events::{Event, How};
pub use crate::engine::frames::classes::FeatureFrame;
use crate::engine::kit::Ctx;
use crate::engine::kit::Rolls;
pub use crate::engine::records::features::{Counter, Feature};
use crate::engine::state::{Implement, State, UnitIdx};
pub use crate::rules::counters::set_counter;
pub use crate::rules::query::regenerate;
pub use crate::rules::query::spellwarp_range as implement_range;
use crate::rules::query::warded_by;
pub use crate::rules::query::{
    DIRECTIONS, consumed, guarded, ignores_concealment, ignores_cover, ignores_range, is_basic_implement, misty_charge,
    pierces, sees_through, shield_resist, speed_bonus, swap_fits,
};
pub use crate::rules::query::{hovering, locked, long_arm_reach as reach};
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::ruleset::RuleError;

/// The played features and their ids in the class files.
pub const PLAYED: &[(&str, Feature)] = &[
    ("duelist", Feature::Duelist),
    ("hexer-brawler", Feature::Brawler),
    ("team-up", Feature::TeamUp),
    ("hexer-terror", Feature::Terror),
    ("piercing-shot", Feature::PiercingShot),
    ("ricochet-shot", Feature::RicochetShot),
    ("seeking-shot", Feature::SeekingShot),
    ("spellwarp-sniper", Feature::SpellwarpSniper),
    ("portal-brawler", Feature::PortalBrawler),
    ("self-lift", Feature::SelfLift),
    ("wardmaster-special-ward", Feature::SpecialWard),
    ("improved-wardmaster", Feature::ImprovedWardmaster),
    ("motile-ward", Feature::MotileWard),
    ("reflective-ward", Feature::ReflectiveWard),
    ("diviner-seer", Feature::Seer),
    ("diviner-scryer", Feature::Scryer),
    ("diviner-improved-scryer", Feature::ImprovedScryer),
    ("charmer-cheerful", Feature::Cheerful),
    ("charmer-creative", Feature::Creative),
    ("sword-hold", Feature::SwordHold),
    ("shivering-sword-whirling", Feature::Whirling),
    ("focused-blade", Feature::FocusedBlade),
    ("status-thief", Feature::StatusThief),
    ("guardless-blade", Feature::GuardlessBlade),
    ("consuming-focus", Feature::ConsumingFocus),
    ("directional-shield", Feature::DirectionalShield),
    ("lift-specialist", Feature::LiftSpecialist),
    ("teleportation-specialist", Feature::TeleportationSpecialist),
    ("tinker-armor", Feature::TinkerArmor),
    ("tinker-cloak", Feature::TinkerCloak),
    ("shivering-sword-electrified", Feature::Electrified),
    ("capacitive-ward", Feature::CapacitiveWard),
    ("long-arm", Feature::LongArm),
    ("shivering-sword-regenerative", Feature::Regenerative),
    ("tinker-improved-traps-charge", Feature::ImprovedTrapsCharge),
    ("tinker-improved-traps-damage", Feature::ImprovedTrapsDamage),
    ("tinker-improved-traps-resist-all", Feature::ImprovedTrapsResist),
    ("tinker-redirecting", Feature::Redirecting),
    ("tinker-absorbing", Feature::Absorbing),
    ("diviner-improved-seer", Feature::ImprovedSeer),
    ("warp-specialist", Feature::WarpSpecialist),
    ("jinxer", Feature::Jinxer),
    ("brewer-improved-at-wills", Feature::ImprovedAtWills),
    ("tamer-commander", Feature::Commander),
    ("tamer-advanced-commander", Feature::AdvancedCommander),
    ("tamer-collector", Feature::Collector),
    ("tamer-completionist-collector", Feature::CompletionistCollector),
    ("spitting-tree", Feature::SpittingTree),
    ("flame-pig", Feature::FlamePig),
    ("scalehound", Feature::Scalehound),
    ("tamer-conjuror", Feature::Conjuror),
    ("tamer-mass-conjuror", Feature::MassConjuror),
    ("kerpoof", Feature::Kerpoof),
    ("giraffape", Feature::Giraffape),
    ("nettlekin", Feature::Nettlekin),
    ("misty-charge", Feature::MistyCharge),
    ("diviner-empath", Feature::Empath),
    ("diviner-improved-empath", Feature::ImprovedEmpath),
    ("charmer-lasting", Feature::Lasting),
];

/// The pick groups whose features are learned several at a time with only some in force
/// (Shivering Sword, L1058), each with the level-5 feature that puts a second one in force.
pub const SWAPPABLE: &[(&str, &str)] =
    &[("blade-enchantment", "shivering-sword-twin-enchantments"), ("self-charm", "shivering-sword-twin-charms")];

/// How many features of a swappable `group` are in force, given the features an athlete has.
pub fn in_force_count(group: &str, features: &[&str]) -> usize {
    let twin = SWAPPABLE.iter().find(|(g, _)| *g == group).map(|(_, t)| *t);
    1 + usize::from(twin.is_some_and(|t| features.contains(&t)))
}

impl Feature {
    /// The feature with this id, if Fray plays it or `content`'s class files list it.
    pub fn parse(id: &str, content: &Content) -> Option<Feature> {
        let id = id.trim();
        if let Some(&(_, f)) = PLAYED.iter().find(|(x, _)| *x == id) {
            return Some(f);
        }
        content.features().iter().position(|x| x == id).map(|i| Feature::Listed(i as u16))
    }
    /// Its id in the class files (a listed one's in `content`'s).
    pub fn id(self, content: &Content) -> &str {
        match self {
            Feature::Listed(i) => content.features().get(i as usize).map_or("?", |s| s.as_str()),
            f => PLAYED.iter().find(|(_, x)| *x == f).map_or("?", |(id, _)| id),
        }
    }
    /// Its pick group in `content`'s class files ("" if none).
    pub fn group(self, content: &Content) -> &str {
        content.feature_group(self.id(content))
    }
    /// Whether Fray plays it.
    pub fn played(self) -> bool {
        !matches!(self, Feature::Listed(_))
    }
    /// Whether it keeps one counter per creature (Electrified: who was zapped this turn).
    pub fn counts_per_creature(self) -> bool {
        matches!(
            self,
            Feature::Electrified | Feature::CapacitiveWard | Feature::Seer | Feature::ImprovedSeer | Feature::Jinxer
        )
    }
    /// Whether it is a Blade Enchantment (lost while Disarmed).
    pub fn is_blade_enchantment(self) -> bool {
        matches!(
            self,
            Feature::SwordHold
                | Feature::Whirling
                | Feature::FocusedBlade
                | Feature::StatusThief
                | Feature::GuardlessBlade
        )
    }
}

fn enemies_within(s: &State, u: UnitIdx, n: i32) -> usize {
    s.units_on_map().filter(|&e| s.enemies(u, e) && s.distance(u, e).is_some_and(|d| d <= n)).count()
}

/// Which feature, if any, makes `attacker`'s 2s read as 5s against `target` now (K-ROLL-7).
pub fn twos_as_fives(s: &State, attacker: UnitIdx, target: UnitIdx) -> Option<&'static str> {
    let un = s.unit(attacker);
    if un.features.is_empty() {
        return None;
    }
    if s.has_feature(attacker, Feature::Duelist) && enemies_within(s, attacker, 5) == 1 {
        return Some("Duelist");
    }
    if s.has_feature(attacker, Feature::Brawler) && enemies_within(s, attacker, 3) >= 2 {
        return Some("Brawler");
    }
    if s.has_feature(attacker, Feature::TeamUp)
        && s.units_on_map()
            .any(|a| a != attacker && a != target && !s.enemies(attacker, a) && s.distance(a, target) == Some(1))
    {
        return Some("Team-Up");
    }
    None
}

/// The dice of an attack roll as read (rulings K-ROLL-7): each die showing 2 reads as 5 under
/// Duelist, Brawler or Team-Up, before Advantage or Disadvantage keeps one. Returns the kept
/// value and the feature, when it changed anything.
pub fn read_roll(
    s: &State,
    attacker: UnitIdx,
    target: UnitIdx,
    dice: &[i32],
    advantage: Option<bool>,
) -> Option<(i32, &'static str)> {
    let why = twos_as_fives(s, attacker, target)?;
    if !dice.contains(&2) {
        return None;
    }
    let mut read = dice.iter().map(|&d| if d == 2 { 5 } else { d });
    let kept = match advantage {
        Some(true) => read.max(),
        Some(false) => read.min(),
        None => read.next_back(),
    }?;
    Some((kept, why))
}

/// Terror: a final roll of 6 leaves the target Panicked, with the attacker as its source,
/// through the target's next turn (rulings K-ST-Panicked).
pub fn on_roll_result(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, value: i32, hit: bool) {
    focus_after(cx, attacker, target, value);
    if value == 6
        && hit
        && attacker != target
        && cx.s.has_feature(attacker, Feature::Terror)
        && cx.s.unit(target).on_map()
    {
        let status = Status {
            kind: StatusKind::Panicked,
            amount: 0,
            source: Some(attacker),
            origin: None,
            duration: Duration::EndOfTurn { unit: target, turn: cx.s.unit(target).turns_started + 1 },
        };
        crate::rules::statuses::give::give_status(cx, target, status, "Terror");
    }
}

/// Whom an Improved Scryer may share its lock with: a teammate, or `keep` the one it has.
fn share_options(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let now = s.counter(u, Feature::ImprovedScryer).1;
    let mut out: Vec<DecisionOption> = s
        .unit_indices()
        .filter(|&t| t != u && s.unit(t).side == s.unit(u).side && Some(t) != now)
        .map(|t| DecisionOption::new(s.unit(t).id.to_string(), format!("share the lock with {}", s.unit(t).id)))
        .collect();
    out.push(DecisionOption::new("keep", "keep sharing as now"));
    out
}

/// After `mover` teleported `t` (itself, an ally or an enemy): Teleportation Specialist gives
/// the Porter or its ally 1 Ward.
pub fn teleported(cx: &mut Ctx, mover: UnitIdx, t: UnitIdx) {
    if cx.s.has_feature(mover, Feature::TeleportationSpecialist) && !cx.s.enemies(mover, t) && cx.s.unit(t).on_map() {
        let ward = cx.s.unit(t).ward + 1;
        cx.emit(Event::WardSet { unit: cx.s.who(t), ward, why: "Teleportation Specialist".into() });
        crate::engine::hooks::ward_gained(cx, t, 1, "Teleportation Specialist"); // Empath
    }
}

/// After a hit lands, before its Effect's forced movement: Spellwarp Sniper (the target was
/// `dist` squares away when hit) and Portal Brawler queue their optional moves, which resolve
/// after the Effect's (rulings K-FM-5).
pub fn on_hit(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, dist: Option<i32>) {
    let s = &*cx.s;
    if !s.enemies(attacker, target) || !s.unit(target).on_map() || !s.unit(attacker).on_map() {
        return;
    }
    let Some(d) = dist else { return };
    let swap = s.has_feature(attacker, Feature::PortalBrawler)
        && d <= 3
        && s.unit(attacker).size == s.unit(target).size
        && swap_fits(s, attacker, target);
    // "stay" among the squares offered makes the teleport optional.
    let sniper = (s.has_feature(attacker, Feature::SpellwarpSniper) && d >= 5).then(|| {
        crate::rules::forced::ForcedFrame::new(s, attacker, target, crate::rules::forced::ForcedKind::Teleport, 2)
    });
    if swap {
        cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::Swap { unit: attacker, target }));
    }
    if let Some(f) = sniper {
        cx.push(crate::engine::kit::Frame::Forced(f));
    }
}

/// After a hit by `attacker` on `target` with `def` (any target, ally or enemy), before the
/// Effect's own moves: Status-Thief's and Guardless Blade's offers.
pub fn on_hit_blade(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, def: &PowerDef) {
    if !def.rolls() || !cx.s.unit(target).on_map() || !cx.s.unit(attacker).on_map() || attacker == target {
        return;
    }
    let melee = def.is_melee(cx.s.unit(attacker).implement == Implement::Sword);
    if cx.s.has_feature(attacker, Feature::GuardlessBlade)
        && melee
        && cx.s.enemies(attacker, target)
        && !sweep_targets(cx.s, attacker, target).is_empty()
    {
        cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::GuardlessSweep { unit: attacker, hit: target }));
    }
    if cx.s.has_feature(attacker, Feature::StatusThief) && thief_options(cx.s, attacker, target).len() > 1 {
        cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::StatusThief { unit: attacker, target }));
    }
}

/// After `attacker`'s attack dealt damage to `target`: Guardless Blade's offer to hit back, when
/// the attacker is an enemy within the Shivering Sword's reach.
pub fn on_damaged(cx: &mut Ctx, target: UnitIdx, attacker: UnitIdx) {
    if cx.s.has_feature(target, Feature::GuardlessBlade)
        && cx.s.unit(target).on_map()
        && cx.s.unit(attacker).on_map()
        && cx.s.enemies(target, attacker)
        && cx.s.distance(target, attacker).is_some_and(|d| d <= cx.s.reach(target))
    {
        cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::GuardlessBack { unit: target, enemy: attacker }));
    }
}

/// Other enemies within the Shivering Sword's reach than the one it hit.
fn sweep_targets(s: &State, unit: UnitIdx, hit: UnitIdx) -> Vec<UnitIdx> {
    s.units_on_map()
        .filter(|&e| e != hit && s.enemies(unit, e) && s.distance(unit, e).is_some_and(|d| d <= s.reach(unit)))
        .collect()
}

/// Guardless Blade's price and blow: 2 damage to the Shivering Sword that nothing reduces, then 2
/// damage to the enemy.
fn guardless(cx: &mut Ctx, unit: UnitIdx, enemy: UnitIdx) {
    let unresisted = crate::rules::damage::FromAttack { attack_or_opportunity: false, pierce: true, melee: false };
    crate::rules::damage::deal(cx, unit, 2, Some(unit), "Guardless Blade (its price)", Some(unresisted));
    if cx.s.unit(enemy).on_map() {
        crate::rules::damage::deal(cx, enemy, 2, Some(unit), "Guardless Blade", None);
    }
}

/// Status-Thief's choices: `take:<status>` from the target, `give:<status>` to it, or `no`.
fn thief_options(s: &State, unit: UnitIdx, target: UnitIdx) -> Vec<DecisionOption> {
    let mut out: Vec<DecisionOption> = Vec::new();
    for (dir, from) in [("take", target), ("give", unit)] {
        let to = if from == target { unit } else { target };
        for st in &s.unit(from).statuses {
            if st.kind == StatusKind::Flying && crate::rules::statuses::give::flyer_above(s, to) {
                continue; // no room in the air there (K-ST-Flying)
            }
            let id = format!("{dir}:{}", st.kind.name());
            if !out.iter().any(|o| o.id == id) {
                out.push(DecisionOption::new(id, format!("{dir} {}", st.kind.name())));
            }
        }
    }
    out.push(DecisionOption::new("no", "move nothing"));
    out
}

/// Moves the first status named `name` from `from` to `to`; references to the Shivering Sword
/// and its target swap over, others stay.
fn steal(cx: &mut Ctx, unit: UnitIdx, target: UnitIdx, from: UnitIdx, to: UnitIdx, name: &str) {
    let Some(st) = cx.s.unit(from).statuses.iter().find(|s| s.kind.name() == name).copied() else { return };
    let flip = |x: UnitIdx| {
        if x == unit {
            target
        } else if x == target {
            unit
        } else {
            x
        }
    };
    let s = &*cx.s;
    let turns =
        |x: UnitIdx, turn: u32, y: UnitIdx| s.unit(y).turns_started + turn.saturating_sub(s.unit(x).turns_started);
    let duration = match st.duration {
        Duration::EndOfTurn { unit: x, turn } => Duration::EndOfTurn { unit: flip(x), turn: turns(x, turn, flip(x)) },
        Duration::StartOfTurn { unit: x, turn } => {
            Duration::StartOfTurn { unit: flip(x), turn: turns(x, turn, flip(x)) }
        }
        d => d,
    };
    let moved = Status { source: st.source.map(flip), duration, ..st };
    cx.emit(Event::StatusEnded { unit: cx.s.who(from), status: st, why: "taken by Status-Thief".into() });
    if st.kind == StatusKind::Flying && !cx.s.has(from, StatusKind::Flying) {
        crate::rules::movement::settle_on_legal_square(cx, from, "comes down beside the creature below");
    }
    if moved.source != Some(to) {
        crate::rules::statuses::give::give_status(cx, to, moved, "Status-Thief");
    }
}

/// The decision a feature frame waits on: (who answers, kind, prompt, options).
pub fn question(s: &State, f: &FeatureFrame) -> (UnitIdx, &'static str, String, Vec<DecisionOption>) {
    match *f {
        FeatureFrame::ChangeSpell { unit, respawn, done } => (
            unit,
            "feature",
            if respawn {
                format!("{}: respawning — change a Blade Enchantment or Self-Charm in force?", s.unit(unit).id)
            } else {
                format!("{}: Change Spell — which learned spell goes in force?", s.unit(unit).id)
            },
            change_spell_options(s, unit, respawn, done),
        ),
        FeatureFrame::StatusThief { unit, target } => (
            unit,
            "feature",
            format!("{}: Status-Thief — move a status between you and {}?", s.unit(unit).id, s.unit(target).id),
            thief_options(s, unit, target),
        ),
        FeatureFrame::GuardlessBack { unit, enemy } => (
            unit,
            "feature",
            format!("{}: Guardless Blade — take 2 damage to deal 2 to {}?", s.unit(unit).id, s.unit(enemy).id),
            vec![DecisionOption::new("yes", "take 2, deal 2"), DecisionOption::new("no", "let it go")],
        ),
        FeatureFrame::GuardlessSweep { unit, hit } => {
            let mut opts: Vec<DecisionOption> = sweep_targets(s, unit, hit)
                .into_iter()
                .map(|e| DecisionOption::new(s.unit(e).id.to_string(), format!("take 2, deal 2 to {}", s.unit(e).id)))
                .collect();
            opts.push(DecisionOption::new("no", "let it go"));
            (unit, "feature", format!("{}: Guardless Blade — strike another enemy in reach?", s.unit(unit).id), opts)
        }
        FeatureFrame::LockOn { unit } => {
            (unit, "target", format!("{}: Scryer — Lock On to whom?", s.unit(unit).id), lock_options(s, unit))
        }
        FeatureFrame::Shield { unit } => (
            unit,
            "feature",
            format!("{}: Directional Shield — guard which way until your next turn?", s.unit(unit).id),
            DIRECTIONS
                .iter()
                .map(|(id, _)| DecisionOption::new(*id, format!("guard the {id}")))
                .chain(std::iter::once(DecisionOption::new("none", "no direction")))
                .collect(),
        ),
        FeatureFrame::ShareLock { unit } => (
            unit,
            "target",
            format!("{}: Improved Scryer — share the lock with which teammate?", s.unit(unit).id),
            share_options(s, unit),
        ),
        FeatureFrame::Capacitive { unit } => (
            unit,
            "feature",
            format!(
                "{}: Capacitive Ward — spend {} of your {} Charge Tokens for 1 more damage?",
                s.unit(unit).id,
                capacitive_cost(s, unit).0,
                charge_tokens(s, unit)
            ),
            vec![DecisionOption::new("spend", "1 more damage"), DecisionOption::new("no", "keep the tokens")],
        ),
        FeatureFrame::Foresee { unit } => (
            unit,
            "feature",
            format!("{}: Seer — roll a foreseen result for this round (3 damage if it goes unused)?", s.unit(unit).id),
            vec![DecisionOption::new("roll", "foresee"), DecisionOption::new("no", "not this round")],
        ),
        FeatureFrame::TeamForesee { unit } => (
            unit,
            "feature",
            format!(
                "{}: Improved Seer — roll a foreseen result for your teammates this round (3 damage if none uses it)?",
                s.unit(unit).id
            ),
            vec![DecisionOption::new("roll", "foresee for the team"), DecisionOption::new("no", "not this round")],
        ),
        FeatureFrame::SpecialWard { unit } => (
            unit,
            "target",
            format!("{}: Special Ward — who gains {}?", s.unit(unit).id, special_ward_amount(s, unit)),
            special_ward_options(s, unit),
        ),
        FeatureFrame::Swap { unit, target } => (
            unit,
            "feature",
            format!("{}: Portal Brawler — swap squares with {}?", s.unit(unit).id, s.unit(target).id),
            vec![DecisionOption::new("swap", "swap squares"), DecisionOption::new("no", "stay put")],
        ),
    }
}

/// Answers a feature frame.
pub fn answer(cx: &mut Ctx, f: FeatureFrame, option: &str) -> Result<(), RuleError> {
    match f {
        FeatureFrame::ChangeSpell { unit, respawn, done } => {
            if option == "keep" {
                return Ok(());
            }
            let (new, old) = match option.split_once('/') {
                Some((n, o)) => (n, Some(o)),
                None => (option, None),
            };
            let c = &cx.s.content;
            let old = old.map(str::to_string).or_else(|| {
                let g = c.feature_group(new);
                cx.s.unit(unit).features.iter().find(|x| x.group(c) == g).map(|x| x.id(c).to_string())
            });
            let bit = SWAPPABLE.iter().position(|(g, _)| *g == c.feature_group(new)).map_or(0, |i| 1u8 << i);
            cx.emit(Event::FeatureSwapped {
                unit: cx.s.who(unit),
                out: old.unwrap_or_default(),
                into: new.to_string(),
            });
            if respawn && !change_spell_options(cx.s, unit, true, done | bit).is_empty() {
                cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::ChangeSpell {
                    unit,
                    respawn,
                    done: done | bit,
                }));
            }
        }
        FeatureFrame::StatusThief { unit, target } => {
            if let Some((dir, name)) = option.split_once(':') {
                let (from, to) = if dir == "take" { (target, unit) } else { (unit, target) };
                steal(cx, unit, target, from, to, name);
            }
        }
        FeatureFrame::GuardlessBack { unit, enemy } => {
            if option == "yes" {
                guardless(cx, unit, enemy);
            }
        }
        FeatureFrame::GuardlessSweep { unit, .. } => {
            if option != "no" {
                let e = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
                guardless(cx, unit, e);
            }
        }
        FeatureFrame::LockOn { unit } => {
            if option != "keep" {
                let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
                set_counter(cx, unit, Feature::Scryer, 1, Some(t));
            }
        }
        FeatureFrame::Shield { unit } => {
            if let Some(i) = DIRECTIONS.iter().position(|(id, _)| *id == option) {
                set_counter(cx, unit, Feature::DirectionalShield, i as i32 + 1, None);
            }
        }
        FeatureFrame::ShareLock { unit } => {
            if option != "keep" {
                let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
                set_counter(cx, unit, Feature::ImprovedScryer, 1, Some(t));
            }
        }
        FeatureFrame::Capacitive { unit } => {
            // An Interrupt that turned the hit into a miss leaves nothing to pay for.
            let evaded = matches!(cx.s.flow.last(), Some(crate::engine::kit::Frame::Attack(a)) if a.evaded);
            if option == "spend" && !evaded {
                set_counter(cx, unit, Feature::CapacitiveWard, 1, Some(unit)); // paid when the damage lands
            }
        }
        FeatureFrame::Foresee { unit } => {
            if option == "roll" {
                let v = cx.d6(Some(unit))?;
                set_counter(cx, unit, Feature::Seer, v, None);
            }
        }
        FeatureFrame::TeamForesee { unit } => {
            if option == "roll" {
                let v = cx.d6(Some(unit))?;
                set_counter(cx, unit, Feature::ImprovedSeer, v, None);
            }
        }
        FeatureFrame::SpecialWard { unit } => {
            let (option, boosted) = match option.strip_suffix('+') {
                Some(o) => (o, true),
                None => (option, false),
            };
            let t = cx.s.find_unit(option).ok_or_else(|| RuleError::malformed(format!("no unit {option:?}")))?;
            let mut amount = special_ward_amount(cx.s, unit);
            if boosted {
                let (_, cost) = capacitive_cost(cx.s, unit);
                let left = charge_tokens(cx.s, unit) - cost;
                set_counter(cx, unit, Feature::CapacitiveWard, left, None);
                amount += 1;
            }
            cx.emit(Event::SpecialWard { unit: cx.s.who(t), from: cx.s.who(unit), amount });
            crate::engine::hooks::ward_gained(cx, t, amount, "Special Ward"); // Empath
            crate::rules::modifiers::ward_boost_used(cx, unit);
        }
        FeatureFrame::Swap { unit, target } => {
            if option == "swap" && cx.s.unit(unit).on_map() && cx.s.unit(target).on_map() {
                swap(cx, unit, target, "Portal Brawler")?;
            }
        }
    }
    Ok(())
}

/// Two creatures trade squares by teleport (K-FM-5): Grabs on either end, zones are entered.
pub fn swap(cx: &mut Ctx, u: UnitIdx, t: UnitIdx, why: &str) -> Result<(), RuleError> {
    let (a, b) = (cx.s.unit(u).pos.unwrap(), cx.s.unit(t).pos.unwrap());
    cx.emit(Event::Note { text: format!("{} and {} swap squares ({why})", cx.s.unit(u).id, cx.s.unit(t).id) });
    cx.emit(Event::Moved { unit: cx.s.who(u), from: a, to: b, how: How::Teleport });
    cx.emit(Event::Moved { unit: cx.s.who(t), from: b, to: a, how: How::Teleport });
    for who_ in [u, t] {
        for st in cx.s.unit(who_).statuses.clone().into_iter().filter(|s| s.kind == StatusKind::Grabbed) {
            cx.emit(Event::StatusEnded { unit: cx.s.who(who_), status: st, why: "teleported out of the Grab".into() });
        }
    }
    crate::rules::zones::entered(cx, u, a, b, Some(u))?;
    crate::rules::zones::entered(cx, t, b, a, Some(u))?;
    teleported(cx, u, u);
    teleported(cx, u, t);
    Ok(())
}

/// Special Ward handed out at the end of a turn: 1, 2 with Improved Wardmaster (L842, L910).
pub fn special_ward_amount(s: &State, u: UnitIdx) -> i32 {
    let base = if s.has_feature(u, Feature::ImprovedWardmaster) { 2 } else { 1 };
    base + crate::rules::modifiers::ward_boost(s, u) // Ward Boost
}

/// Who may gain the Wardmaster's Special Ward: itself, or an ally it can see (a clear line,
/// not Hidden).
pub fn special_ward_options(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let x = s.unit(u);
    let Some(p) = x.pos else { return Vec::new() };
    s.units_on_map()
        .filter(|&t| {
            t == u
                || (!s.enemies(u, t)
                    && crate::rules::cover::shot(s, p, x.size, t) != fray_core::sight::Sight::Blocked
                    && !s.has(t, StatusKind::Hidden))
        })
        .flat_map(|t| {
            let id = s.unit(t).id.to_string();
            let plain = DecisionOption::new(id.clone(), format!("{id} gains the Special Ward"));
            let boosted = (s.has_feature(u, Feature::CapacitiveWard) && charge_tokens(s, u) >= capacitive_cost(s, u).1)
                .then(|| DecisionOption::new(format!("{id}+"), format!("{id} gains it, 1 bigger for Charge Tokens")));
            std::iter::once(plain).chain(boosted)
        })
        .collect()
}

/// A Wardmaster's Charge Tokens (Capacitive Ward).
pub fn charge_tokens(s: &State, u: UnitIdx) -> i32 {
    s.unit(u).counters.iter().find(|c| c.feature == Feature::CapacitiveWard && c.about.is_none()).map_or(0, |c| c.value)
}

/// Capacitive Ward's prices: (tokens for 1 damage, tokens for 1 more Special Ward); 3 and 2, or 2
/// and 1 with Improved Wardmaster.
pub fn capacitive_cost(s: &State, u: UnitIdx) -> (i32, i32) {
    if s.has_feature(u, Feature::ImprovedWardmaster) { (2, 1) } else { (3, 2) }
}

/// Whether `attacker` may be asked to spend Charge Tokens on a hit with `def` (one with a damage
/// line).
pub fn capacitive_offer(s: &State, attacker: UnitIdx, def: &PowerDef) -> bool {
    def.damage.is_some()
        && s.has_feature(attacker, Feature::CapacitiveWard)
        && charge_tokens(s, attacker) >= capacitive_cost(s, attacker).0
}

/// Pushes Capacitive Ward's question for `attacker`'s hit.
pub fn ask_capacitive(cx: &mut Ctx, attacker: UnitIdx) {
    cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::Capacitive { unit: attacker }));
}

/// The damage Capacitive Ward adds to a packet now dealt (`dealing`): 1 if the Wardmaster chose
/// to spend, paid now; a choice left unused (the hit dealt no damage) is dropped unpaid.
pub fn capacitive_damage(cx: &mut Ctx, attacker: UnitIdx, dealing: bool) -> i32 {
    if cx.s.counter_about(attacker, Feature::CapacitiveWard, attacker) == 0 {
        return 0;
    }
    set_counter(cx, attacker, Feature::CapacitiveWard, 0, Some(attacker));
    let (cost, _) = capacitive_cost(cx.s, attacker);
    let tokens = charge_tokens(cx.s, attacker);
    if !dealing || tokens < cost {
        return 0;
    }
    set_counter(cx, attacker, Feature::CapacitiveWard, tokens - cost, None);
    1
}

/// `u` lost Special Ward (to damage, or by being Taken Out by it): the Wardmaster whose Ward it
/// was gains a Charge Token when `u` is its ally.
pub fn special_ward_lost(cx: &mut Ctx, u: UnitIdx) {
    let Some(w) = cx.s.unit(u).special_from else { return };
    if w != u && !cx.s.enemies(w, u) && cx.s.has_feature(w, Feature::CapacitiveWard) {
        let tokens = charge_tokens(cx.s, w) + 1;
        set_counter(cx, w, Feature::CapacitiveWard, tokens, None);
    }
}

/// As a unit's turn ends: a Wardmaster on the map hands out its Special Ward (pushed above the
/// next turn, so it is answered first).
pub fn end_of_turn(cx: &mut Ctx, u: UnitIdx) {
    if cx.s.unit(u).on_map() {
        whirling(cx, u);
    }
    // Electrified: once per enemy per turn; a new turn begins.
    let zapped: Vec<(UnitIdx, UnitIdx)> =
        cx.s.unit_indices()
            .flat_map(|w| {
                cx.s.unit(w)
                    .counters
                    .iter()
                    .filter(|c| c.feature == Feature::Electrified)
                    .filter_map(move |c| c.about.map(|a| (w, a)))
            })
            .collect();
    for (w, a) in zapped {
        set_counter(cx, w, Feature::Electrified, 0, Some(a));
    }
    if cx.s.has_feature(u, Feature::ImprovedScryer) && cx.s.unit(u).on_map() && share_options(cx.s, u).len() > 1 {
        cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::ShareLock { unit: u })); // after the lock
    }
    if cx.s.has_feature(u, Feature::Scryer) && cx.s.unit(u).on_map() && lock_options(cx.s, u).len() > 1 {
        cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::LockOn { unit: u }));
    }
    if cx.s.has_feature(u, Feature::SpecialWard) && cx.s.unit(u).on_map() {
        cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::SpecialWard { unit: u }));
    }
}

/// After a missed attack roll: Sword Hold (the target holds enemies Grabbed), and Reflective
/// Ward: an enemy whose attack missed a holder of the Special Ward takes 1 damage (2 improved),
/// credited to the Wardmaster; not when an Interrupt turned a hit into the miss.
pub fn on_miss(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, evaded: bool) {
    if cx.s.enemies(target, attacker) {
        sword_hold(cx, target);
    }
    let Some(w) = warded_by(cx.s, target) else { return };
    if evaded || !cx.s.has_feature(w, Feature::ReflectiveWard) || !cx.s.enemies(target, attacker) {
        return;
    }
    let n = if cx.s.has_feature(w, Feature::ImprovedWardmaster) { 2 } else { 1 };
    if cx.s.unit(attacker).on_map() {
        crate::rules::damage::deal(cx, attacker, n, Some(w), "Reflective Ward", None);
    }
}

/// The swaps a Shivering Sword may make: each learned spell not in force, replacing the one of
/// its group in force (`new/old` when two are, with Twin Enchantments or Twin Charms); groups in
/// `done` are settled; on respawning also `keep`.
pub fn change_spell_options(s: &State, u: UnitIdx, respawn: bool, done: u8) -> Vec<DecisionOption> {
    let (un, c) = (s.unit(u), &*s.content);
    let mut out = Vec::new();
    for &f in un.learned.iter().filter(|f| !un.features.contains(f)) {
        let g = f.group(c);
        if SWAPPABLE.iter().position(|(x, _)| *x == g).is_some_and(|i| done & (1 << i) != 0) {
            continue;
        }
        let olds: Vec<Feature> = un.features.iter().filter(|x| x.group(c) == g).copied().collect();
        let id = f.id(c);
        match olds.as_slice() {
            [] => out.push(DecisionOption::new(id, format!("put {id} in force"))),
            [o] => out.push(DecisionOption::new(id, format!("{id} in place of {}", o.id(c)))),
            more => {
                for o in more {
                    out.push(DecisionOption::new(format!("{id}/{}", o.id(c)), format!("{id} in place of {}", o.id(c))));
                }
            }
        }
    }
    if respawn && !out.is_empty() {
        out.push(DecisionOption::new("keep", "keep the spells in force"));
    }
    out
}

/// Checks a power whose rules live here or that a feature limits (Change Spell: the first thing
/// on the user's turn, and something learned to swap in; Foreseen Result; taking off).
pub fn check_power(s: &State, u: UnitIdx, def: &PowerDef) -> Result<(), RuleError> {
    // Taking off (Self-Lift Flight): no room in the air above a Flying creature (K-ST-Flying).
    let takes_off = def.target == crate::content::powers::Targeting::Myself
        && def.effect.iter().any(|e| e.status.as_deref() == Some("flying"))
        && !s.has(u, StatusKind::Flying);
    if takes_off && crate::rules::statuses::give::flyer_above(s, u) {
        return Err(crate::engine::kit::refuse(
            "K-ST-Flying",
            format_args!("a Flying creature is above {}: no room to take off", s.unit(u).id),
        ));
    }
    if def.hook.as_deref() == Some("use-foreseen")
        && (foreseen_value(s, u) == 0 || s.counter_about(u, Feature::Seer, u) != 0)
    {
        return Err(crate::engine::kit::refuse(
            "diviner-seer",
            format_args!("{} holds no unused foreseen result (or has already called on it)", s.unit(u).id),
        ));
    }
    if def.hook.as_deref() == Some("change-spell") {
        let a = s.unit(u).actions;
        if a.taken > 0 || a.free > 0 || a.attack || a.moves > 0 || a.role {
            return Err(crate::engine::kit::refuse(
                "change-spell",
                format_args!("{} may use Change Spell only as the first thing on its turn", s.unit(u).id),
            ));
        }
        if change_spell_options(s, u, false, 0).is_empty() {
            return Err(crate::engine::kit::refuse(
                "change-spell",
                format_args!("{} has no learned Blade Enchantment or Self-Charm out of force to swap in", s.unit(u).id),
            ));
        }
    }
    Ok(())
}

/// Uses a power whose rules live here.
pub fn use_power(cx: &mut Ctx, u: UnitIdx, power: u16) -> Result<(), RuleError> {
    let def = cx.s.powers.get(power);
    let (name, hook) = (def.name.clone(), def.hook);
    cx.emit(Event::PowerUsed { unit: cx.s.who(u), power: name, targets: vec![] });
    if hook.as_deref() == Some("use-foreseen") {
        set_counter(cx, u, Feature::Seer, 1, Some(u)); // armed: the next die is the foreseen one
    } else if hook.as_deref() == Some("use-team-foreseen") {
        // Improved Seer: the teammate's next die is the team's foreseen one.
        if let Some(w) = team_die_holder(cx.s, u) {
            set_counter(cx, w, Feature::ImprovedSeer, 1, Some(u));
        }
    } else {
        cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::ChangeSpell { unit: u, respawn: false, done: 0 }));
    }
    Ok(())
}

/// A Seer's foreseen result, if it holds one unused (1-6).
pub fn foreseen_value(s: &State, u: UnitIdx) -> i32 {
    s.unit(u).counters.iter().find(|c| c.feature == Feature::Seer && c.about.is_none()).map_or(0, |c| c.value)
}

/// Improved Seer: the team die `w` holds unused (1-6), or 0.
pub fn team_die(s: &State, w: UnitIdx) -> i32 {
    s.unit(w).counters.iter().find(|c| c.feature == Feature::ImprovedSeer && c.about.is_none()).map_or(0, |c| c.value)
}

/// The teammate of `u` whose team die `u` may call on: an Improved Seer (a Seer too) holding
/// one that nobody has called on yet.
fn team_die_holder(s: &State, u: UnitIdx) -> Option<UnitIdx> {
    s.unit_indices().find(|&w| {
        w != u
            && s.unit(w).side == s.unit(u).side
            && s.has_feature(w, Feature::ImprovedSeer)
            && team_die(s, w) > 0
            && !s
                .unit(w)
                .counters
                .iter()
                .any(|c| c.feature == Feature::ImprovedSeer && c.about.is_some() && c.value > 0)
    })
}

/// Whether `u` may use `power` without knowing it: calling on a teammate's team die.
pub fn team_die_power(s: &State, u: UnitIdx, power: u16) -> bool {
    s.powers.get(power).hook.as_deref() == Some("use-team-foreseen") && team_die_holder(s, u).is_some()
}

/// The team-die action to add to `u`'s menu (it does not know it as a power).
pub fn team_die_menu(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let Some(p) = crate::engine::memo::find_power(s, "team-foreseen-result") else { return Vec::new() };
    if s.unit(u).powers.contains(&p)
        || crate::rules::actions::check_power_use(s, u, p, false).is_err()
        || crate::rules::control::check_power(s, u, s.powers.get(p), &[u]).is_err()
    {
        return Vec::new(); // not offered under a compulsion either (Panicked, Dominated)
    }
    vec![DecisionOption::new("power:team-foreseen-result", s.powers.get(p).name.clone())]
}

/// The team die an Improved Seer teammate holds armed for `u`'s next die, used up now.
fn team_foreseen(cx: &mut Ctx, u: UnitIdx) -> Option<i32> {
    let w = cx.s.unit_indices().find(|&w| {
        !cx.s.unit(w).counters.is_empty() && w != u && cx.s.counter_about(w, Feature::ImprovedSeer, u) > 0
    })?;
    let v = team_die(cx.s, w);
    set_counter(cx, w, Feature::ImprovedSeer, 0, Some(u));
    set_counter(cx, w, Feature::ImprovedSeer, 0, None);
    cx.emit(Event::Note { text: format!("{} uses {}'s foreseen result: {v}", cx.s.unit(u).id, cx.s.unit(w).id) });
    (v > 0).then_some(v)
}

/// Called for each die `u` rolls: the armed foreseen result replaces it (and is used up).
pub fn foreseen(cx: &mut Ctx, u: UnitIdx) -> Option<i32> {
    if cx.s.unit(u).counters.is_empty() || cx.s.counter_about(u, Feature::Seer, u) == 0 {
        return team_foreseen(cx, u);
    }
    let v = foreseen_value(cx.s, u);
    set_counter(cx, u, Feature::Seer, 0, Some(u));
    set_counter(cx, u, Feature::Seer, 0, None);
    cx.emit(Event::Note { text: format!("{} uses its foreseen result: {v}", cx.s.unit(u).id) });
    (v > 0).then_some(v)
}

/// As a round begins (before its first turn): each Seer on the map is asked whether to foresee.
pub fn round_begins(cx: &mut Ctx) {
    for u in cx.s.units_on_map().collect::<Vec<_>>() {
        if cx.s.has_feature(u, Feature::Seer) && cx.s.unit(u).kind == crate::engine::state::UnitKind::Athlete {
            if cx.s.has_feature(u, Feature::ImprovedSeer) {
                cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::TeamForesee { unit: u })); // asked second
            }
            cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::Foresee { unit: u }));
        }
    }
}

/// As a round ends: a foreseen result never used costs its Seer 3 damage (backlash).
pub fn round_ends(cx: &mut Ctx) {
    for u in cx.s.unit_indices().collect::<Vec<_>>() {
        if foreseen_value(cx.s, u) > 0 {
            set_counter(cx, u, Feature::Seer, 0, Some(u));
            set_counter(cx, u, Feature::Seer, 0, None);
            crate::rules::damage::deal(cx, u, 3, None, "the backlash of an unused foreseen result", None);
        }
        // Improved Seer: the team die nobody used (even if called on) backfires too.
        if team_die(cx.s, u) > 0 {
            let armed: Vec<UnitIdx> =
                cx.s.unit(u)
                    .counters
                    .iter()
                    .filter(|c| c.feature == Feature::ImprovedSeer && c.value > 0)
                    .filter_map(|c| c.about)
                    .collect();
            for a in armed {
                set_counter(cx, u, Feature::ImprovedSeer, 0, Some(a));
            }
            set_counter(cx, u, Feature::ImprovedSeer, 0, None);
            crate::rules::damage::deal(cx, u, 3, None, "the backlash of an unused team foreseen result", None);
        }
    }
}

/// After a respawn in the Dungeon: a Shivering Sword may pick its spells in force again (L1060).
pub fn after_respawn(cx: &mut Ctx, u: UnitIdx) {
    if !change_spell_options(cx.s, u, true, 0).is_empty() {
        cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::ChangeSpell { unit: u, respawn: true, done: 0 }));
    }
}

/// Sword Hold: 2 damage to each enemy `holder` has Grabbed (an attack missed it).
fn sword_hold(cx: &mut Ctx, holder: UnitIdx) {
    if !cx.s.has_feature(holder, Feature::SwordHold) || !cx.s.unit(holder).on_map() {
        return;
    }
    let held: Vec<UnitIdx> =
        crate::rules::movement::grabbed_by(cx.s, holder).filter(|&v| cx.s.enemies(holder, v)).collect();
    for v in held {
        crate::rules::damage::deal(cx, v, 2, Some(holder), "Sword Hold", None);
    }
}

/// A failed escape roll against a Grab: Sword Hold costs the escaper 2 damage.
pub fn escape_failed(cx: &mut Ctx, u: UnitIdx, kind: StatusKind) {
    if kind != StatusKind::Grabbed {
        return;
    }
    let holders: Vec<UnitIdx> =
        cx.s.unit(u).statuses.iter().filter(|s| s.kind == StatusKind::Grabbed).filter_map(|s| s.source).collect();
    for h in holders {
        if cx.s.has_feature(h, Feature::SwordHold) && cx.s.enemies(h, u) && cx.s.unit(u).on_map() {
            crate::rules::damage::deal(cx, u, 2, Some(h), "Sword Hold", None);
        }
    }
}

/// Whirling, as `u`'s turn ends: each Shivering Sword with it ready and `u` an enemy in its
/// reach deals 1 damage and is spent until its own next turn.
fn whirling(cx: &mut Ctx, u: UnitIdx) {
    let ws: Vec<UnitIdx> =
        cx.s.units_on_map()
            .filter(|&w| {
                cx.s.has_feature(w, Feature::Whirling)
                    && cx.s.enemies(w, u)
                    && cx.s.counter(w, Feature::Whirling).0 == 0
                    && cx.s.distance(w, u).is_some_and(|d| d <= cx.s.reach(w))
            })
            .collect();
    for w in ws {
        if !cx.s.unit(u).on_map() {
            break;
        }
        set_counter(cx, w, Feature::Whirling, 1, None);
        crate::rules::damage::deal(cx, u, 1, Some(w), "Whirling", None);
    }
}

/// As `u`'s turn starts: its Whirling is ready again; a Grab with an Electrified enemy costs it
/// 1 damage, like Ongoing 1, for each such Grab.
pub fn start_of_turn(cx: &mut Ctx, u: UnitIdx) {
    if cx.s.counter(u, Feature::Whirling).0 != 0 {
        set_counter(cx, u, Feature::Whirling, 0, None);
    }
    // Directional Shield: last turn's direction ends; a new one may be picked.
    set_counter(cx, u, Feature::DirectionalShield, 0, None);
    if cx.s.has_feature(u, Feature::DirectionalShield) {
        cx.push(crate::engine::kit::Frame::Feature(FeatureFrame::Shield { unit: u }));
    }
    let grabs: Vec<UnitIdx> =
        cx.s.units_on_map()
            .filter(|&w| {
                cx.s.has_feature(w, Feature::Electrified)
                    && cx.s.enemies(w, u)
                    && (cx.s.status_from(u, StatusKind::Grabbed, w).is_some()
                        || cx.s.status_from(w, StatusKind::Grabbed, u).is_some())
            })
            .collect();
    for w in grabs {
        if cx.s.unit(u).on_map() {
            crate::rules::damage::deal(cx, u, 1, Some(w), "Electrified (the Grab)", None);
        }
    }
}

/// Electrified: `w` was attacked or damaged by `by`; an adjacent enemy takes 1 damage, once per
/// enemy per turn.
pub fn zap(cx: &mut Ctx, w: UnitIdx, by: UnitIdx) {
    if w == by
        || !cx.s.has_feature(w, Feature::Electrified)
        || !cx.s.enemies(w, by)
        || cx.s.distance(w, by) != Some(1)
        || cx.s.counter_about(w, Feature::Electrified, by) != 0
    {
        return;
    }
    set_counter(cx, w, Feature::Electrified, 1, Some(by));
    crate::rules::damage::deal(cx, by, 1, Some(w), "Electrified", None);
}

/// After an attack has resolved: every target it was made against may zap the attacker.
pub fn after_attack(cx: &mut Ctx, attacker: UnitIdx, targets: &[UnitIdx]) {
    for &t in targets {
        if cx.s.unit(t).on_map() && cx.s.unit(attacker).on_map() {
            zap(cx, t, attacker);
        }
    }
}

/// Focused Blade before a roll against `target`: tokens are lost on a change of target, and
/// the ones held are the roll's bonus.
pub fn focus_bonus(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx) -> i32 {
    if !cx.s.has_feature(attacker, Feature::FocusedBlade) {
        return 0;
    }
    let (tokens, about) = cx.s.counter(attacker, Feature::FocusedBlade);
    if about != Some(target) {
        set_counter(cx, attacker, Feature::FocusedBlade, 0, Some(target));
        return 0;
    }
    tokens
}

/// Focused Blade after the roll is final: a 6 loses every token, anything else adds one.
fn focus_after(cx: &mut Ctx, attacker: UnitIdx, target: UnitIdx, value: i32) {
    if cx.s.has_feature(attacker, Feature::FocusedBlade) {
        let tokens = if value >= 6 { 0 } else { cx.s.counter(attacker, Feature::FocusedBlade).0 + 1 };
        set_counter(cx, attacker, Feature::FocusedBlade, tokens, Some(target));
    }
}

/// After a power's Effect lands on `target` (from an attack, or by Creative Use): Cheerful heals
/// an ally hit by the Effect of an implement power; Creative earns a Miss Token for a Creative
/// Use on an ally.
pub fn after_effect(cx: &mut Ctx, user: UnitIdx, target: UnitIdx, def: &PowerDef, creative: bool) {
    let ally = target != user && !cx.s.enemies(user, target);
    if !ally {
        return;
    }
    let has_effect = !def.effect_at(cx.s.unit(user).level).is_empty() || def.charm.is_some(); // a charm's effects
    if cx.s.has_feature(user, Feature::Cheerful)
        && def.uses_implement()
        && has_effect
        && cx.s.unit(target).on_map()
        && cx.s.unit(target).hp >= 1
    {
        let n = if cx.s.unit(user).level >= 5 { 2 } else { 1 };
        crate::rules::damage::heal(cx, target, n, "Cheerful");
    }
    if creative && cx.s.has_feature(user, Feature::Creative) && cx.s.unit(user).pc {
        let total = cx.s.unit(user).miss_tokens + 1;
        cx.emit(Event::MissToken { unit: cx.s.who(user), total });
    }
}

/// Whom a Scryer may Lock On to: another creature within 5 squares it can see (a clear line, not
/// Hidden from it), other than the one it is locked to; or `keep` the lock it has (none, at
/// first).
fn lock_options(s: &State, u: UnitIdx) -> Vec<DecisionOption> {
    let x = s.unit(u);
    // Taken Out before the question came up: only `keep`.
    let Some(p) = x.pos else { return vec![DecisionOption::new("keep", "keep the lock as it is")] };
    let mut out: Vec<DecisionOption> = s
        .units_on_map()
        .filter(|&t| {
            t != u
                && !locked(s, u, t)
                && s.distance(u, t).is_some_and(|d| d <= 5)
                && crate::rules::cover::shot(s, p, x.size, t) != fray_core::sight::Sight::Blocked
                && !s.hidden_from(t, u)
        })
        .map(|t| DecisionOption::new(s.unit(t).id.to_string(), format!("Lock On to {}", s.unit(t).id)))
        .collect();
    out.push(DecisionOption::new("keep", "keep the lock as it is"));
    out
}

/// What class features add to the core rules: Change Spell and the Seer's powers, the foreseen
/// die, the Seer at a round's start and end, Reflective Ward on a miss.
pub fn register(r: &mut crate::engine::hooks::Registry) {
    r.power_hooks(POWER_HOOKS, |cx, a| use_power(cx, a.unit, a.power));
    r.die(foreseen);
    r.on_attack_done(20, "electrified", |cx, a| after_attack(cx, a.attacker, &a.targets));
    r.on_hit_coming(10, "capacitive-ward", |cx, a, def| {
        let ask = capacitive_offer(cx.s, a.attacker, def);
        if ask {
            ask_capacitive(cx, a.attacker);
        }
        ask
    });
    r.menu(40, team_die_menu); // Improved Seer's team die
    r.lends(team_die_power);
    r.on_turn(crate::engine::hooks::Trigger::StartEffects, 10, "whirling", start_of_turn);
    r.on_turn(crate::engine::hooks::Trigger::TurnEnded, 10, "special-ward", end_of_turn);
    r.on_roll_read(20, "terror", |cx, r| {
        on_roll_result(cx, r.attacker, r.target, r.value, r.hit);
        Ok(())
    });
    r.on_missed(60, "reflective-ward", |cx, m| {
        on_miss(cx, m.attacker, m.target, m.evaded);
        Ok(())
    });
    r.on_round(crate::engine::hooks::Trigger::RoundBegins, 10, "seer", |cx| {
        round_begins(cx);
        Ok(crate::engine::hooks::Then::Go)
    });
    r.on_round(crate::engine::hooks::Trigger::RoundEnds, 30, "seer", |cx| {
        round_ends(cx);
        Ok(crate::engine::hooks::Then::Go)
    });
    r.features(crate::engine::hooks::ClassFeatures {
        check_power,
        read_roll,
        after_effect,
        teleported,
        escape_failed,
        focus_bonus,
        capacitive_damage,
        on_hit,
        on_hit_blade,
        on_damaged,
        zap,
        special_ward_lost,
        after_respawn,
    });
}
