//! Abilities in play (C-GL terms), grouped by how they work so one mechanism serves many:
//!
//! - ability attacks ([`SPELLS`]): a reach or range, an Att bonus, a power (none, fixed, S-Pow +N
//!   or injuries outright), a damage type, a shape (one target, a line, a burst) and riders on a
//!   hit, an injury or a crit (status tokens, Slay, Drain, Mana theft, Knockback);
//! - special weapon attacks ([`weapon_attack`]): W-Att and W-Pow changes, melee or ranged only, no
//!   reactions, an extra Crit Pow+2, a damage type that replaces the weapon's;
//! - support abilities ([`use_support`]): Mana, healing, Endurance, clearing tokens, Luck;
//! - passive effects read by the rules: damage-type immunities and Resist Elements
//!   ([`immune`], [`resist`]), Immune to Slay ([`slay`]), Serenity and Recovery, Voodoo,
//!   Shrieking Armor, Flame Wreath, Leaping and Levitating Move.

use crate::battle::{Ability, Special, State};
use crate::rules::{self, Cx, dist, effect_cost};
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// What an ability attack injures with (C-BAT-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pow {
    /// No injury roll: the attack does no harm of its own.
    None,
    /// A fixed power.
    Fixed(i32),
    /// The user's S-Pow plus this.
    SPow(i32),
    /// This many injuries outright, with no roll against armour (Embloody).
    Outright(i32),
}

/// Which squares an ability attack takes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One target within reach (or range).
    One,
    /// A straight line of this many squares from the user (C-GL-LINE-ATTACK).
    Line(i32),
    /// Everyone within this radius of the user, friend or foe (C-GL-BURST-ATTACK).
    Burst(i32),
}

/// Something an attack does beyond its injury roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rider {
    /// A Stun token (C-GL-STUN).
    Stun,
    /// Defeat on the spot unless immune (C-GL-SLAY).
    Slay,
    /// Poison counters (C-GL-POISON).
    Poison(i32),
    /// Endurance drained (C-GL-DRAIN).
    DrainE(i32),
    /// Every point of Endurance drained (Flash Freeze).
    DrainAll,
    /// Mana taken from the target and given to the user, never above its stat (C-GL-STEAL).
    StealMana(i32),
    /// Pushed this many squares away (C-GL-KNOCKBACK).
    Knockback(i32),
    /// A further Fire hit at this Pow (Dazzle's crit).
    FireHit(i32),
    /// An S-Pow contest: a win slays, a loss injures the user (Touch of Death).
    DeathContest,
    /// The target counts the user's injuries until its next activation (C-GL-PAIN-WARP).
    PainWarp,
}

/// An ability attack's numbers.
#[derive(Clone, Copy, Debug)]
pub struct Spell {
    /// The ability.
    pub ability: Ability,
    /// Reach in spaces (or the range before the ranged penalty).
    pub reach: i32,
    /// Whether it may reach further at the ranged penalty ("4+").
    pub ranged: bool,
    /// Att bonus.
    pub att: i32,
    /// What it injures with.
    pub pow: Pow,
    /// Damage type (C-GL-DAMAGE-TYPES).
    pub kind: &'static str,
    /// Its area.
    pub shape: Shape,
    /// Pow added on a crit.
    pub crit_pow: i32,
    /// Hits without a roll (and so never crits).
    pub always_hits: bool,
    /// Riders when it injures.
    pub on_injury: &'static [Rider],
    /// Riders when it hits.
    pub on_hit: &'static [Rider],
    /// Riders on a crit.
    pub on_crit: &'static [Rider],
    /// Its reach is the user's Comm (Pain Warp).
    pub reach_comm: bool,
}

/// An ability attack on one target with these numbers and no riders.
pub(crate) const fn spell(ability: Ability, reach: i32, att: i32, pow: Pow, kind: &'static str) -> Spell {
    Spell {
        ability,
        reach,
        ranged: false,
        att,
        pow,
        kind,
        shape: Shape::One,
        crit_pow: 0,
        always_hits: false,
        on_injury: &[],
        on_hit: &[],
        on_crit: &[],
        reach_comm: false,
    }
}

/// Every ability attack of the glossary that Fray plays. Types the glossary does not give are
/// Mundane (docs/rulings/collision.md).
pub const SPELLS: &[Spell] = &[
    // C-GL-CAUSTIC-BURST: radius 2, Att+2, S-Pow+2, Acid; a crit leaves Poison 2.
    Spell {
        shape: Shape::Burst(2),
        on_crit: &[Rider::Poison(2)],
        ..spell(Ability::CausticBurst, 0, 2, Pow::SPow(2), "Acid")
    },
    // C-GL-FIRE-BREATHING: a line of 3, Att+1, Pow 4, Fire; a crit adds Pow+2.
    Spell { shape: Shape::Line(3), crit_pow: 2, ..spell(Ability::FireBreathing, 0, 1, Pow::Fixed(4), "Fire") },
    // C-GL-CLOBBER: reach 1, no injury roll; a hit stuns, a crit slays.
    Spell { on_hit: &[Rider::Stun], on_crit: &[Rider::Slay], ..spell(Ability::Clobber, 1, 0, Pow::None, "Mundane") },
    // C-GL-DAZZLE: Fire, reach 1, Att+1, no harm; a hit stuns, a crit adds a Pow 3 Fire hit.
    Spell { on_hit: &[Rider::Stun], on_crit: &[Rider::FireHit(3)], ..spell(Ability::Dazzle, 1, 1, Pow::None, "Fire") },
    // C-GL-EMBLOODY: Dark, range 4+, Att+1; a hit is 1 injury with no armour roll.
    Spell { ranged: true, ..spell(Ability::Embloody, 4, 1, Pow::Outright(1), "Dark") },
    // C-GL-FLASH-FREEZE: Cold, reach 2, Att+3, S-Pow+2; injuring empties the pool and stuns; a
    // crit slays.
    Spell {
        on_injury: &[Rider::DrainAll, Rider::Stun],
        on_crit: &[Rider::Slay],
        ..spell(Ability::FlashFreeze, 2, 3, Pow::SPow(2), "Cold")
    },
    // C-GL-MANA-THEFT: reach 1, Att+1, no harm; a hit steals 1 Mana.
    Spell { on_hit: &[Rider::StealMana(1)], ..spell(Ability::ManaTheft, 1, 1, Pow::None, "Mundane") },
    // C-GL-SHOCKWAVE: Magic, reach 3, Pow 2, always hits.
    Spell { always_hits: true, ..spell(Ability::Shockwave, 3, 0, Pow::Fixed(2), "Magic") },
    // C-GL-STATIC-JOLT: Electric, range 4+, Att+2, S-Pow+0; a crit stuns.
    Spell { ranged: true, on_crit: &[Rider::Stun], ..spell(Ability::StaticJolt, 4, 2, Pow::SPow(0), "Electric") },
    // C-GL-VENOM: Acid, reach 1, Att+3, Pow 1; a hit Poison 1, a crit Poison 3 instead.
    Spell {
        on_hit: &[Rider::Poison(1)],
        on_crit: &[Rider::Poison(2)],
        ..spell(Ability::Venom, 1, 3, Pow::Fixed(1), "Acid")
    },
    // C-GL-TOUCH-OF-DEATH: reach 1, Att+1; a hit starts an S-Pow contest.
    Spell { on_hit: &[Rider::DeathContest], ..spell(Ability::TouchOfDeath, 1, 1, Pow::None, "Mundane") },
    // C-GL-SHOVE: reach 1, no harm; a hit knocks back 2 and drains 2E; a crit stuns.
    Spell {
        on_hit: &[Rider::Knockback(2), Rider::DrainE(2)],
        on_crit: &[Rider::Stun],
        ..spell(Ability::Shove, 1, 0, Pow::None, "Mundane")
    },
    // C-GL-WHIRLING-GALE: a Mundane line of 4, Att+2, S-Pow+0; a hit stuns; a crit Pow+3.
    Spell {
        shape: Shape::Line(4),
        crit_pow: 3,
        on_hit: &[Rider::Stun],
        ..spell(Ability::WhirlingGale, 0, 2, Pow::SPow(0), "Mundane")
    },
    // C-GL-PAIN-WARP: a melee attack with reach equal to Comm, Att+1, no injury roll; a hit links
    // the target to the user's injuries.
    Spell { reach_comm: true, on_hit: &[Rider::PainWarp], ..spell(Ability::PainWarp, 0, 1, Pow::None, "Mundane") },
];

/// The attack numbers of ability `k`, if it is an ability attack.
pub fn spell_of(k: Ability) -> Option<&'static Spell> {
    SPELLS.iter().find(|s| s.ability == k)
}

/// A special weapon attack's numbers (C-GL terms).
#[derive(Clone, Copy, Debug, Default)]
pub struct WeaponAttack {
    /// W-Att change.
    pub att: i32,
    /// W-Pow change.
    pub pow: i32,
    /// Only with a melee weapon.
    pub melee: bool,
    /// Only with a ranged weapon.
    pub ranged: bool,
    /// Nobody may react (C-GL-NO-REACTIONS).
    pub no_reactions: bool,
    /// Pow added on a crit, on top of the weapon's Crit.
    pub crit_pow: i32,
    /// The damage type, replacing the weapon's.
    pub kind: Option<&'static str>,
}

/// The numbers of special attack `k`.
pub fn weapon_attack(k: Special) -> WeaponAttack {
    let w = WeaponAttack::default();
    match k {
        Special::Plain | Special::Backstab => w,
        Special::Guided => WeaponAttack { att: 2, ..w },
        Special::Butcher => WeaponAttack { att: -2, pow: 4, ..w },
        Special::Gouge => WeaponAttack { pow: 2, ..w },
        Special::Finishing => WeaponAttack { att: 1, melee: true, no_reactions: true, ..w },
        Special::Power => WeaponAttack { att: -1, pow: 2, ..w },
        Special::Sudden => WeaponAttack { att: 1, melee: true, no_reactions: true, crit_pow: 2, ..w },
        Special::Snipe => WeaponAttack { ranged: true, no_reactions: true, crit_pow: 2, ..w },
        Special::Smite => WeaponAttack { melee: true, kind: Some("Light"), ..w },
        Special::Chilling => WeaponAttack { melee: true, kind: Some("Cold"), ..w },
        Special::RipAround => WeaponAttack { att: 1, melee: true, ..w },
        Special::Thunder => WeaponAttack { att: 1, pow: 2, kind: Some("Electric"), ..w },
        Special::Throw => w,
        Special::Barrage => WeaponAttack { ranged: true, ..w },
        Special::Checkmate => WeaponAttack { att: 2, melee: true, ..w },
        Special::Scissor => WeaponAttack { melee: true, ..w },
        Special::HyperCutter => WeaponAttack { att: 1, melee: true, kind: Some("Magic"), ..w },
    }
}

// ---------------------------------------------------------------- passive effects

/// The elements Resist Elements and Power Channel answer (rules/collision.md §4.2).
pub const ELEMENTS: [&str; 6] = ["Light", "Dark", "Fire", "Cold", "Electric", "Acid"];

/// Whether `u` is immune to attacks and effects of damage type `kind` (C-GL-IMMUNE).
pub fn immune(s: &State, u: u8, kind: &str) -> bool {
    effect_cost(s, u, &format!("Immune to {kind}")).is_some()
}

/// Arm added against a hit of `kind`: Resist Elements 2 against Fire, Cold, Electric, Light and
/// Dark (C-GL-RESIST-ELEMENTS-2; Ice is Cold).
pub fn resist(s: &State, u: u8, kind: &str) -> i32 {
    let covered = ["Fire", "Cold", "Ice", "Electric", "Light", "Dark"].contains(&kind);
    if covered && effect_cost(s, u, "Resist Elements 2").is_some() { 2 } else { 0 }
}

/// Slay (C-GL-SLAY): defeats `t` unless it is Immune to Slay. Whether it was defeated.
pub fn slay(cx: &mut Cx, t: u8, why: &str) -> bool {
    if effect_cost(cx.s, t, "Immune to Slay").is_some() {
        let id = cx.s.u(t).id.clone();
        cx.log(|| format!("{id} is Immune to Slay: {why} does nothing (C-GL-IMMUNE-TO-SLAY)"));
        return false;
    }
    rules::defeat(cx, t, why);
    true
}

/// Whether `u` is under the aura `name` (C-GL-AURA): a friend on the table with the effect has
/// `u` within its Comm; the owner itself only when `self_too` (Inspire Bravery). An aura counts
/// once however many sources reach it.
pub fn aura(s: &State, u: u8, name: &str, self_too: bool) -> bool {
    let Some(at) = s.u(u).at else { return false };
    let side = s.u(u).side;
    s.standing().any(|o| {
        (o != u || self_too)
            && s.u(o).side == side
            && s.u(o).at.is_some_and(|p| dist(p, at) <= s.card(o).stats.comm)
            && effect_cost(s, o, name).is_some()
    })
}

/// Whether `u` may pass through enemies: Leaping Move, or Levitating Move past enemies without it
/// (C-GL-LEAPING-MOVE, C-GL-LEVITATING-MOVE; heights are in [`crate::terrain`]).
pub fn passes(s: &State, u: u8, enemy: u8) -> bool {
    let lower = s.u(enemy).at.is_some_and(|p| s.height(p) <= crate::terrain::level(s, u));
    crate::terrain::leaps(s, u)
        || (effect_cost(s, u, "Levitating Move").is_some()
            && effect_cost(s, enemy, "Levitating Move").is_none()
            && lower)
}

/// Flame Wreath (C-GL-FLAME-WREATH): `u`, having moved or starting its activation, takes a Pow 2
/// Fire hit from each enemy next to it that has the effect.
pub fn flame_wreath(cx: &mut Cx, u: u8, why: &str) -> Result<(), RuleError> {
    let Some(at) = cx.s.u(u).at else { return Ok(()) };
    let side = cx.s.u(u).side;
    let burners: Vec<u8> =
        cx.s.standing()
            .filter(|&o| cx.s.u(o).side != side && cx.s.u(o).at.is_some_and(|p| dist(p, at) == 1))
            .filter(|&o| effect_cost(cx.s, o, "Flame Wreath").is_some())
            .collect();
    for o in burners {
        if cx.s.u(u).at.is_none() {
            break;
        }
        let (oid, id) = (cx.s.u(o).id.clone(), cx.s.u(u).id.clone());
        cx.log(|| format!("{id} {why} next to {oid}'s Flame Wreath: a Pow 2 Fire hit (C-GL-FLAME-WREATH)"));
        if immune(cx.s, u, "Fire") {
            cx.log(|| format!("{id} is Immune to Fire (C-GL-IMMUNE)"));
            continue;
        }
        let hurt = rules::injury_roll(cx, u, 2, 0, "Fire")?;
        rules::wound(cx, u, hurt, Some(o))?;
    }
    Ok(())
}

/// Serenity (uninjured) and Recovery: 1 Mana in the recovery step, never above the Mana stat
/// (C-GL-SERENITY, C-GL-RECOVERY).
pub fn mana_at_recovery(cx: &mut Cx, u: u8) {
    let serene = effect_cost(cx.s, u, "Serenity").is_some() && cx.s.u(u).injuries == 0;
    let recovery = effect_cost(cx.s, u, "Recovery").is_some();
    if !(serene || recovery) {
        return;
    }
    let stat = cx.s.card(u).stats.mana;
    if cx.s.u(u).mana < stat {
        cx.s.um(u).mana += 1;
        let (id, m) = (cx.s.u(u).id.clone(), cx.s.u(u).mana);
        let what = if serene { "Serenity" } else { "Recovery" };
        cx.log(|| format!("{id} regains 1 Mana by {what}, {m}M (C-GL-{})", what.to_uppercase()));
    }
}

/// Voodoo (C-GL-VOODOO): `u` was injured by `by`; a D10 of 7 or more gives `by` 1 injury too.
pub fn voodoo(cx: &mut Cx, u: u8, by: Option<u8>) -> Result<(), RuleError> {
    let Some(b) = by.filter(|&b| b != u && cx.s.u(b).at.is_some()) else { return Ok(()) };
    if effect_cost(cx.s, u, "Voodoo").is_none() {
        return Ok(());
    }
    let n = cx.d10()?;
    let (id, bid) = (cx.s.u(u).id.clone(), cx.s.u(b).id.clone());
    cx.log(|| {
        format!(
            "{id}'s Voodoo rolls {n}{} (C-GL-VOODOO)",
            if n >= 7 { format!(": {bid} takes 1 injury") } else { String::new() }
        )
    });
    if n >= 7 {
        rules::wound(cx, b, 1, None)?;
    }
    Ok(())
}

/// Shrieking Armor (C-GL-SHRIEKING-ARMOR, Fear): `attacker` hit `u` in melee; it flees unless it
/// rolls 5 or more.
pub fn shrieking_armor(cx: &mut Cx, u: u8, attacker: u8) -> Result<(), RuleError> {
    if attacker == u || effect_cost(cx.s, u, "Shrieking Armor").is_none() || cx.s.u(attacker).at.is_none() {
        return Ok(());
    }
    let aid = cx.s.u(attacker).id.clone();
    if rules::fearless(cx.s, attacker) {
        cx.log(|| format!("{aid} ignores the Shrieking Armor (C-GL-DAUNTLESS)"));
        return Ok(());
    }
    let n = cx.d10()?;
    cx.log(|| format!("{aid} hears the Shrieking Armor and rolls {n} (C-GL-SHRIEKING-ARMOR)"));
    if n < 5 {
        rules::give_flee(cx, attacker, Some(u));
    }
    Ok(())
}

// ---------------------------------------------------------------- ability attacks

/// Whom a one-target ability attack of `u` may pick: an enemy within reach, or any enemy for a
/// ranged one.
pub fn spell_targets(s: &State, u: u8, sp: &Spell) -> Vec<u8> {
    let Some(from) = s.u(u).at else { return Vec::new() };
    let side = s.u(u).side;
    s.standing()
        .filter(|&t| s.u(t).side != side)
        .filter(|&t| sp.ranged || s.u(t).at.is_some_and(|p| dist(from, p) <= spell_reach(s, u, sp)))
        .collect()
}

/// An ability attack's reach: its own, or the user's Comm (C-GL-PAIN-WARP).
pub fn spell_reach(s: &State, u: u8, sp: &Spell) -> i32 {
    if sp.reach_comm { s.card(u).stats.comm } else { sp.reach }
}

/// The characters an ability attack takes in: the target, everyone on the line, or everyone in
/// the burst but the user.
pub fn spell_victims(s: &State, u: u8, sp: &Spell, target: Option<u8>, dir: (i8, i8)) -> Vec<u8> {
    let from = s.u(u).at;
    match sp.shape {
        Shape::One => target.into_iter().collect(),
        Shape::Line(n) => rules::line_squares(s, u, dir, n).into_iter().filter_map(|p| s.at(p)).collect(),
        Shape::Burst(r) => {
            s.standing().filter(|&t| t != u && from.zip(s.u(t).at).is_some_and(|(a, b)| dist(a, b) <= r)).collect()
        }
    }
}

/// One target of an ability attack (C-BAT-10 to C-BAT-15 for each target of an area, C-BAT-17):
/// immunity, the hit roll at the user's Att + the spell's bonus (less the ranged penalty), the
/// injury, then On Injury, On Hit and crit riders.
pub fn spell_hit(cx: &mut Cx, u: u8, t: u8, sp: &Spell) -> Result<(), RuleError> {
    let tid = cx.s.u(t).id.clone();
    if immune(cx.s, t, sp.kind) {
        cx.log(|| format!("{tid} is Immune to {}: the attack does nothing (C-GL-IMMUNE)", sp.kind));
        return Ok(());
    }
    let (hit, crit) = if sp.always_hits {
        cx.log(|| {
            format!("{} always hits {tid} (C-GL-{})", sp.ability.name(), rules::slug(sp.ability.name()).to_uppercase())
        });
        (true, false)
    } else {
        let d = match (cx.s.u(u).at, cx.s.u(t).at) {
            (Some(a), Some(b)) => dist(a, b),
            _ => 0,
        };
        let penalty = if sp.ranged && d > sp.reach { (d - sp.reach) * cx.s.options.ranged_penalty } else { 0 };
        let att = rules::att_of(cx.s, u) + sp.att - penalty;
        let need = rules::def_of(cx.s, t) + cx.s.options.hit_threshold;
        let n = rules::hit_die(cx, u, t, |n| n == 10 || n + att >= need)?;
        let hit = n == 10 || n + att >= need;
        let crit = n == 10;
        cx.log(|| {
            format!(
                "Against {tid}: {n} + Att {att}{} = {} against {need}: {} (C-BAT-10)",
                if penalty > 0 { format!(" (ranged -{penalty})") } else { String::new() },
                n + att,
                if crit {
                    "a crit"
                } else if hit {
                    "a hit"
                } else {
                    "a miss"
                }
            )
        });
        (hit, crit)
    };
    if !hit {
        return Ok(());
    }
    cx.counted(&[("power hits", sp.ability.name(), 1.0)], String::new);
    let hurt = match sp.pow {
        Pow::None => 0,
        Pow::Outright(n) => {
            cx.log(|| format!("{tid} takes {n} injury outright, no armour roll (C-GL-EMBLOODY)"));
            n
        }
        Pow::Fixed(p) => rules::injury_roll(cx, t, p + if crit { sp.crit_pow } else { 0 }, 0, sp.kind)?,
        Pow::SPow(p) => {
            let spow = cx.s.card(u).stats.spow;
            rules::injury_roll(cx, t, spow + p + if crit { sp.crit_pow } else { 0 }, 0, sp.kind)?
        }
    };
    rules::wound(cx, t, hurt, Some(u))?;
    if hurt > 0 {
        riders(cx, u, t, sp.on_injury, sp.kind)?;
    }
    riders(cx, u, t, sp.on_hit, sp.kind)?;
    if crit {
        riders(cx, u, t, sp.on_crit, sp.kind)?;
    }
    Ok(())
}

/// Applies riders to `t` (still standing) from `u`.
pub fn riders(cx: &mut Cx, u: u8, t: u8, list: &[Rider], kind: &str) -> Result<(), RuleError> {
    for r in list {
        if cx.s.u(t).at.is_none() {
            break;
        }
        let (uid, tid) = (cx.s.u(u).id.clone(), cx.s.u(t).id.clone());
        match *r {
            Rider::Stun => {
                cx.s.um(t).stun += 1;
                cx.log(|| format!("{tid} is stunned (C-GL-STUN)"));
            }
            Rider::Slay => {
                slay(cx, t, "slain (C-GL-SLAY)");
            }
            Rider::Poison(n) => rules::give_poison(cx, t, n),
            Rider::DrainE(n) => {
                let f = cx.s.um(t);
                f.endurance = (f.endurance - n).max(0);
                cx.log(|| format!("{tid} is drained of {n}E (C-GL-DRAIN)"));
            }
            Rider::DrainAll => {
                cx.s.um(t).endurance = 0;
                cx.log(|| format!("{tid} loses all its Endurance (C-GL-FLASH-FREEZE)"));
            }
            Rider::StealMana(n) => {
                let took = cx.s.u(t).mana.min(n);
                cx.s.um(t).mana -= took;
                let cap = cx.s.card(u).stats.mana;
                let f = cx.s.um(u);
                f.mana = (f.mana + took).min(cap.max(f.mana));
                cx.log(|| format!("{uid} steals {took} Mana from {tid} (C-GL-STEAL)"));
            }
            Rider::Knockback(n) => knockback(cx, u, t, n)?,
            Rider::FireHit(p) => {
                if immune(cx.s, t, "Fire") {
                    cx.log(|| format!("{tid} is Immune to Fire (C-GL-IMMUNE)"));
                } else {
                    cx.log(|| format!("The crit adds a Pow {p} Fire hit on {tid} (C-GL-DAZZLE)"));
                    let hurt = rules::injury_roll(cx, t, p, 0, "Fire")?;
                    rules::wound(cx, t, hurt, Some(u))?;
                }
            }
            Rider::DeathContest => {
                let (a, d) = (cx.s.card(u).stats.spow, cx.s.card(t).stats.spow);
                if rules::contest(cx, u, a, t, d, "S-Pow")? {
                    slay(cx, t, "Touch of Death (C-GL-TOUCH-OF-DEATH)");
                } else {
                    cx.log(|| format!("{uid} loses the contest and takes 1 injury (C-GL-TOUCH-OF-DEATH)"));
                    rules::wound(cx, u, 1, None)?;
                }
            }
            Rider::PainWarp => crate::tactics::pain_warp(cx, u, t),
        }
        let _ = kind;
    }
    Ok(())
}

/// Knockback (C-GL-KNOCKBACK): `t` is pushed `n` squares straight away from `from`; a wall or
/// another character stops it with a Pow 4 Mundane hit; pushed off the edge it goes to the
/// reserves (C-BAT-5).
pub fn knockback(cx: &mut Cx, from: u8, t: u8, n: i32) -> Result<(), RuleError> {
    let (Some(a), Some(start)) = (cx.s.u(from).at, cx.s.u(t).at) else { return Ok(()) };
    let (dx, dy) = ((start.x - a.x).signum(), (start.y - a.y).signum());
    let mut at = start;
    let mut blocked = false;
    for _ in 0..n {
        let next = Pos::new(at.x + dx, at.y + dy);
        // Pushed off an edge: to the reserves.
        if next.x < 0 || next.y < 0 || next.x >= cx.s.width || next.y >= cx.s.height {
            cx.s.um(t).at = Some(at);
            rules::to_reserves(cx, t, 0, "knocked off the edge of the board (C-GL-KNOCKBACK)");
            return Ok(());
        }
        if !cx.s.open(next) || cx.s.at(next).is_some() {
            blocked = true;
            break;
        }
        at = next;
    }
    cx.s.um(t).at = Some(at);
    let tid = cx.s.u(t).id.clone();
    cx.log(|| format!("{tid} is knocked back from {} to {} (C-GL-KNOCKBACK)", start.key(), at.key()));
    // C-BAT-20: knocked off a height.
    crate::terrain::fall(cx, t, Some(start))?;
    if cx.s.u(t).at.is_none() {
        return Ok(());
    }
    if blocked {
        cx.log(|| format!("{tid} runs into something: a Pow 4 Mundane hit (C-GL-KNOCKBACK)"));
        if !immune(cx.s, t, "Mundane") {
            let hurt = rules::injury_roll(cx, t, 4, 0, "Mundane")?;
            rules::wound(cx, t, hurt, Some(from))?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- support abilities

/// Whether `k` is a support ability (no attack roll), used on the returned characters.
pub fn support_targets(s: &State, u: u8, k: Ability) -> Option<Vec<u8>> {
    let from = s.u(u).at?;
    let side = s.u(u).side;
    let x = s.u(u);
    let c = s.card(u);
    let within = |t: u8, r: i32| s.u(t).at.is_some_and(|p| dist(from, p) <= r);
    let me = |ok: bool| if ok { vec![u] } else { Vec::new() };
    let friends = || s.standing().filter(move |&t| s.u(t).side == side);
    let harmful = |t: u8| {
        let y = s.u(t);
        y.stun + y.hex + y.poison + y.flee > 0
    };
    Some(match k {
        Ability::Meditate => me(x.mana < c.stats.mana),
        // C-GL-GATHER-COURAGE: offered when the test holds; the Mana has no cap in the guide.
        Ability::GatherCourage => me(crate::terrain::sheltered(s, u)),
        Ability::Wreck => me(!crate::terrain::wreck_squares(s, u).is_empty()),
        Ability::Upheaval => me(!crate::terrain::upheaval_pieces(s, u).is_empty()),
        Ability::TapIntoGea | Ability::Fortune => vec![u],
        Ability::Persevere => me(!x.persevering),
        Ability::HeatOfBattle => me(s.standing().any(|t| {
            s.u(t).side != side
                && c.weapons.iter().any(|w| {
                    let (r, ranged) = rules::reach(w);
                    !ranged && within(t, r)
                })
        })),
        Ability::AssessTheThreat => s.standing().filter(|&t| s.u(t).side != side && within(t, c.stats.comm)).collect(),
        Ability::ManaGift => friends().filter(|&t| t != u && s.u(t).mana < s.card(t).stats.mana).collect(),
        Ability::Regenerate => me(x.injuries > 0),
        Ability::Vigorate => friends().filter(|&t| within(t, 2) && s.u(t).endurance < s.card(t).stats.end).collect(),
        Ability::Rally => me(friends().any(|t| within(t, c.stats.comm) && s.u(t).flee > 0)),
        Ability::EpicHeal => me(friends().any(|t| within(t, 8) && s.u(t).injuries > 0)),
        Ability::Remedy => friends().filter(|&t| within(t, 2) && harmful(t)).collect(),
        _ => return None,
    })
}

/// Uses support ability `k` of `u` on `t` (costs already paid).
pub fn use_support(cx: &mut Cx, u: u8, k: Ability, t: u8) -> Result<(), RuleError> {
    let (uid, tid) = (cx.s.u(u).id.clone(), cx.s.u(t).id.clone());
    let rid = format!("C-GL-{}", rules::slug(k.name()).to_uppercase());
    match k {
        Ability::Meditate => {
            cx.s.um(u).mana += 1;
            cx.log(|| format!("{uid} meditates: 1 Mana ({rid})"));
        }
        Ability::GatherCourage => {
            cx.s.um(u).mana += 1;
            cx.log(|| format!("{uid} gathers courage in cover from every enemy: 1 Mana ({rid})"));
        }
        Ability::TapIntoGea => {
            let n = cx.d10()?;
            if n >= 4 {
                cx.s.um(u).mana += 1;
            }
            cx.log(|| {
                format!("{uid} taps into Gea and rolls {n}: {} ({rid})", if n >= 4 { "1 Mana" } else { "nothing" })
            });
        }
        Ability::HeatOfBattle => {
            cx.s.um(u).mana += 2;
            cx.log(|| format!("{uid} feeds on the heat of battle: 2 Mana ({rid})"));
        }
        Ability::AssessTheThreat => {
            if rules::fearless(cx.s, t) {
                cx.log(|| format!("{tid} is not afraid: no effect (C-GL-DAUNTLESS)"));
            } else {
                let (a, d) = (cx.s.card(u).stats.comm, cx.s.card(t).stats.comm);
                if rules::contest(cx, u, a, t, d, "Command")? {
                    cx.s.um(u).mana += 1;
                    cx.log(|| format!("{uid} sizes up {tid}: 1 Mana ({rid})"));
                }
            }
        }
        Ability::ManaGift => {
            cx.s.um(t).mana += 1;
            cx.log(|| format!("{uid} gives {tid} 1 Mana ({rid})"));
        }
        Ability::Regenerate => {
            cx.s.um(u).injuries -= 1;
            cx.log(|| format!("{uid} regenerates 1 injury ({rid})"));
        }
        Ability::Vigorate => {
            let end = cx.s.card(t).stats.end;
            let f = cx.s.um(t);
            f.endurance = (f.endurance + 2).min(end.max(f.endurance));
            let e = f.endurance;
            cx.log(|| format!("{uid} vigorates {tid}: {e}E ({rid})"));
        }
        Ability::Rally => {
            let (Some(from), side, comm) = (cx.s.u(u).at, cx.s.u(u).side, cx.s.card(u).stats.comm) else {
                return Ok(());
            };
            for f in cx.s.units.iter_mut() {
                if f.side == side && f.at.is_some_and(|p| dist(p, from) <= comm) {
                    f.flee = 0;
                    f.flee_from = None;
                }
            }
            cx.log(|| format!("{uid} rallies every friend within {comm}: no more flee tokens ({rid})"));
        }
        Ability::EpicHeal => {
            let (Some(from), side) = (cx.s.u(u).at, cx.s.u(u).side) else { return Ok(()) };
            for f in cx.s.units.iter_mut() {
                if f.side == side && f.at.is_some_and(|p| dist(p, from) <= 8) {
                    let n = if f.id == uid { 2 } else { 1 };
                    f.injuries = (f.injuries - n).max(0);
                }
            }
            cx.log(|| format!("{uid} heals every friend within 8 by 1 injury, itself by 2 ({rid})"));
        }
        Ability::Remedy => {
            // Fray's reading: the kind with the most tokens goes (poison, hex, stun, flee on a tie).
            let y = cx.s.u(t).clone();
            let kinds = [("poison", y.poison), ("hex", y.hex), ("stun", y.stun), ("flee", y.flee)];
            let (name, _) = kinds.iter().fold(("", 0), |best, &(n, c)| if c > best.1 { (n, c) } else { best });
            let f = cx.s.um(t);
            match name {
                "poison" => f.poison = 0,
                "hex" => f.hex = 0,
                "stun" => f.stun = 0,
                _ => f.flee = 0,
            }
            cx.log(|| format!("{uid} remedies {tid}: every {name} token off ({rid})"));
        }
        Ability::Persevere => {
            cx.s.um(u).persevering = true;
            cx.log(|| {
                format!("{uid} perseveres: until its next activation injuries neither hamper nor defeat it ({rid})")
            });
        }
        Ability::Fortune => {
            cx.s.um(u).luck += 1;
            cx.log(|| format!("{uid} takes a Luck token ({rid}, C-GL-LUCK)"));
        }
        _ => {}
    }
    Ok(())
}
