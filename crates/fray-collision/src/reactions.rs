//! Reactions that answer more than an attack on oneself (C-GL terms), each a question asked of the
//! reacting side's seat in the one-question flow:
//!
//! - swaps and dodges before the roll, by the target's side: Castle, Got your Back, Sidestep
//!   (offered with the other before-roll reactions of [`crate::rules`]);
//! - backing an attack, by the attacking side: Tactical Strike ([`Pending::Backing`]);
//! - answering an ability (or a reaction) of an enemy within 2: Trip and Distract
//!   ([`Pending::Interrupt`]), with what was being used held until the answer ([`Used`]);
//! - answering a move: Challenge (an effect, rolled by itself) and Counter Attack
//!   ([`Pending::CounterAttack`]), the movement going square by square ([`Walk`]);
//! - answering a friend's activation: Kiss of Death ([`Pending::Kiss`]).
//!
//! docs/rulings/collision.md says what the guide states and what Fray chose.

use crate::battle::{Aim, Interrupt, MoveKind, Pending, SIDES, State, Strike, Used, Walk};
use crate::rules::{self, Cx, ability_cost, dist, effect_cost, slug};
use fray_core::decision::{Decision, DecisionOption};
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// Whether `u` can pay `name` now, and its cost.
fn affords(s: &State, u: u8, name: &str) -> Option<(i32, i32)> {
    ability_cost(s, u, name).filter(|&(e, m)| e <= s.u(u).endurance && m <= s.u(u).mana)
}

/// Whether `u` may react at all: on the table and not hexed (C-GL-HEX).
fn may_react(s: &State, u: u8) -> bool {
    s.u(u).at.is_some() && s.u(u).hex == 0
}

fn within(s: &State, a: u8, b: u8, r: i32) -> bool {
    matches!((s.u(a).at, s.u(b).at), (Some(p), Some(q)) if dist(p, q) <= r)
}

fn id(s: &State, u: u8) -> String {
    s.u(u).id.clone()
}

// ---------------------------------------------------------------- Castle, Got your Back, Sidestep

/// The allies a Castle by `t` may trade places with: friends on the table within its Comm
/// (C-GL-CASTLE).
pub fn castle_allies(s: &State, t: u8) -> Vec<u8> {
    let (side, comm) = (s.u(t).side, s.card(t).stats.comm);
    s.standing().filter(|&a| a != t && s.u(a).side == side && within(s, a, t, comm)).collect()
}

/// The squares a Sidestep by `t` may go to: the open, empty squares next to it (C-GL-SIDESTEP;
/// Fray's reading: heights and obstacles do not stop the one square).
pub fn sidestep_squares(s: &State, t: u8) -> Vec<Pos> {
    let Some(at) = s.u(t).at else { return Vec::new() };
    at.neighbours().into_iter().filter(|&q| s.open(q) && s.at(q).is_none()).collect()
}

/// Whether reaction `name` (Castle, Got your Back, Sidestep) is open to `r` against `k`.
pub fn swap_open(s: &State, k: &Strike, r: u8, name: &str) -> bool {
    match name {
        "Castle" => r == k.target && !castle_allies(s, r).is_empty(),
        "Got your Back" => r != k.target && within(s, r, k.target, 1),
        _ => r == k.target && !sidestep_squares(s, r).is_empty(),
    }
}

/// Every before-roll reaction as an option: (id, who, which, E, M, aim). A Castle is one option
/// per ally, a Sidestep one per square.
pub fn before_roll_options(s: &State, k: &Strike) -> Vec<(String, u8, &'static str, i32, i32, Aim)> {
    let mut out = Vec::new();
    for (r, name, e, m) in rules::before_roll_reactions(s, k) {
        let word = rules::reaction_word(s, r, k.target, name);
        match name {
            "Castle" => {
                for a in castle_allies(s, r) {
                    out.push((format!("{word}-{}", s.u(a).id), r, name, e, m, Aim::Ally(a)));
                }
            }
            "Sidestep" => {
                for q in sidestep_squares(s, r) {
                    out.push((format!("{word}-{}", q.key()), r, name, e, m, Aim::Square(q)));
                }
            }
            _ => out.push((word, r, name, e, m, Aim::None)),
        }
    }
    out
}

/// What a Castle, Got your Back or Sidestep option does, for the menu.
pub fn swap_text(s: &State, k: &Strike, r: u8, name: &str, aim: Aim) -> String {
    match (name, aim) {
        ("Castle", Aim::Ally(a)) => format!("trade places with {}, who becomes the target", s.u(a).id),
        ("Sidestep", Aim::Square(q)) => format!("step to {}; out of the attack's reach it is ignored", q.key()),
        _ => format!("{} trades places with {} and becomes the target", s.u(r).id, s.u(k.target).id),
    }
}

fn trade_places(cx: &mut Cx, a: u8, b: u8) {
    let (pa, pb) = (cx.s.u(a).at, cx.s.u(b).at);
    cx.s.um(a).at = pb;
    cx.s.um(b).at = pa;
}

/// Castle, Got your Back or Sidestep takes effect (paid already).
pub fn swap(cx: &mut Cx, mut k: Strike, r: u8, name: &'static str, aim: Aim) -> Result<(), RuleError> {
    let (e, m) = ability_cost(cx.s, r, name).unwrap_or_default();
    let tag = format!("C-GL-{}", slug(name).to_uppercase());
    let (rid, tid) = (id(cx.s, r), id(cx.s, k.target));
    let new_target = match (name, aim) {
        ("Castle", Aim::Ally(a)) => a,
        ("Got your Back", _) => r,
        (_, Aim::Square(q)) => return sidestep(cx, k, q),
        _ => return rules::offer_before_roll(cx, k),
    };
    trade_places(cx, k.target, new_target);
    let nid = id(cx.s, new_target);
    cx.log(|| {
        format!("{rid} uses {name} for {e}E {m}M: {tid} and {nid} trade places, {nid} is the target now ({tag})")
    });
    k.target = new_target;
    // Fray's reading: what the first target gained against the attack (Dodge, Look Out, Decoy)
    // stays with it; the new target reacts for itself.
    k.def_bonus = 0;
    k.arm_bonus = 0;
    k.decoy = false;
    let kind = rules::attack_kind(cx.s, k.attacker, k.weapon, k.special);
    if crate::abilities::immune(cx.s, new_target, &kind) {
        cx.log(|| format!("{nid} is Immune to {kind}: the attack does nothing (C-GL-IMMUNE)"));
        return rules::after_attack(cx);
    }
    rules::offer_before_roll(cx, k)
}

/// Sidestep: the target steps to `q`; out of a melee attack's reach the attack is ignored; else it
/// goes on from there (cover and range from the new square) (C-GL-SIDESTEP).
fn sidestep(cx: &mut Cx, k: Strike, q: Pos) -> Result<(), RuleError> {
    let t = k.target;
    let (tid, from) = (id(cx.s, t), cx.s.u(t).at.map(|p| p.key()).unwrap_or_default());
    cx.s.um(t).at = Some(q);
    let (e, m) = ability_cost(cx.s, t, "Sidestep").unwrap_or_default();
    cx.log(|| format!("{tid} sidesteps from {from} to {} for {e}E {m}M (C-GL-SIDESTEP)", q.key()));
    crate::abilities::flame_wreath(cx, t, "sidesteps")?;
    let (reach, ranged) = rules::attack_reach(cx.s, k.attacker, k.weapon as usize, k.special);
    if cx.s.u(t).at.is_some() && !ranged && cx.s.u(k.attacker).at.is_some_and(|a| dist(a, q) > reach) {
        cx.log(|| format!("{tid} is out of the attack's reach {reach}: the attack is ignored (C-GL-SIDESTEP)"));
        return rules::after_attack(cx);
    }
    rules::offer_before_roll(cx, k)
}

// ---------------------------------------------------------------- Tactical Strike

/// The friends of the attacker who may back `k` with Tactical Strike: within their own Comm of
/// it, able to react and pay, once per attack, not against No Reactions (C-GL-TACTICAL-STRIKE).
pub fn backers(s: &State, k: &Strike) -> Vec<u8> {
    if k.reacted & Strike::bit("Tactical Strike") != 0 || !rules::attack_allows_reactions(s, k) {
        return Vec::new();
    }
    let side = s.u(k.attacker).side;
    s.standing()
        .filter(|&r| r != k.attacker && s.u(r).side == side && may_react(s, r))
        .filter(|&r| within(s, r, k.attacker, s.card(r).stats.comm) && affords(s, r, "Tactical Strike").is_some())
        .collect()
}

/// An attack is declared and paid: the attacking side may back it, then the target's side reacts
/// before the roll.
pub fn backing_or_roll(cx: &mut Cx, k: Strike) -> Result<(), RuleError> {
    if cx.s.u(k.attacker).at.is_some() && cx.s.u(k.target).at.is_some() && !backers(cx.s, &k).is_empty() {
        cx.s.pending = Pending::Backing(k);
        return Ok(());
    }
    rules::offer_before_roll(cx, k)
}

fn back(cx: &mut Cx, mut k: Strike, r: u8) -> Result<(), RuleError> {
    k.att_bonus += 2;
    k.pow_bonus += 1;
    let (rid, aid) = (id(cx.s, r), id(cx.s, k.attacker));
    cx.log(|| format!("{rid} backs {aid}'s attack: W-Att +2 and Pow +1 for it, 1M (C-GL-TACTICAL-STRIKE)"));
    rules::offer_before_roll(cx, k)
}

// ---------------------------------------------------------------- Trip and Distract

impl Used {
    /// Who is using it.
    pub fn user(&self) -> u8 {
        match self {
            Used::Ability { user, .. } => *user,
            Used::Attack(k) => k.attacker,
            Used::BeforeRoll(_, r, ..) | Used::Backing(_, r) | Used::Kiss(_, r) => *r,
            Used::OnHit(k, _) => k.target,
        }
    }
    /// Its name.
    pub fn name(&self) -> &'static str {
        match self {
            Used::Ability { ability, .. } => ability.name(),
            Used::Attack(k) => k.special.name(),
            Used::BeforeRoll(_, _, n, _) | Used::OnHit(_, n) => n,
            Used::Backing(..) => "Tactical Strike",
            Used::Kiss(..) => "Kiss of Death",
        }
    }
    /// Whether Trip answers it: an action other than moving and plain weapon attacks (abilities
    /// and special weapon attacks used in an activation; Fray's reading: not reactions).
    fn trippable(&self) -> bool {
        matches!(self, Used::Ability { .. } | Used::Attack(_))
    }
    /// Whether Distract answers it: a non-attack special ability, reactions included.
    fn distractable(&self) -> bool {
        match self {
            Used::Ability { ability, .. } => crate::abilities::spell_of(*ability).is_none(),
            Used::Attack(_) => false,
            _ => true,
        }
    }
}

/// Who may answer `i` now, with which reaction and its cost: enemies of the user within 2, able
/// to react and pay, each once (C-GL-TRIP, C-GL-DISTRACT).
pub fn interrupters(s: &State, i: &Interrupt) -> Vec<(u8, &'static str, i32, i32)> {
    let u = i.used.user();
    if let Used::Attack(k) = &i.used
        && !rules::attack_allows_reactions(s, k)
    {
        return Vec::new();
    }
    let side = s.u(u).side;
    let mut out = Vec::new();
    for r in s.standing().filter(|&r| s.u(r).side != side && may_react(s, r) && !i.tried.contains(&r)) {
        if !within(s, r, u, 2) {
            continue;
        }
        for (name, open) in [("Trip", i.used.trippable()), ("Distract", i.used.distractable())] {
            if let Some((e, m)) = affords(s, r, name).filter(|_| open) {
                out.push((r, name, e, m));
            }
        }
    }
    out
}

/// Offers enemies of the user the chance to Trip or Distract `used`; whether it was offered.
pub fn interrupt(cx: &mut Cx, used: Used) -> bool {
    let i = Interrupt { used, tried: Vec::new() };
    if interrupters(cx.s, &i).is_empty() {
        return false;
    }
    cx.s.pending = Pending::Interrupt(i);
    true
}

/// Nobody stopped `used`: it goes on.
fn resume(cx: &mut Cx, used: Used) -> Result<(), RuleError> {
    match used {
        Used::Ability { user, ability, target, dir, choice } => {
            rules::run_ability(cx, user, ability, target, dir, choice)
        }
        Used::Attack(k) => rules::declared(cx, k),
        Used::BeforeRoll(k, r, name, aim) => rules::before_roll_reaction(cx, k, r, name, aim),
        Used::OnHit(k, name) => rules::on_hit_reaction(cx, k, name),
        Used::Backing(k, r) => back(cx, k, r),
        Used::Kiss(u, r) => kiss(cx, u, r),
    }
}

/// `used` is cancelled: its cost stays spent (an ability is paid now) and the game goes on
/// without it.
fn negate(cx: &mut Cx, used: Used) -> Result<(), RuleError> {
    match used {
        Used::Ability { user, ability, .. } => {
            let (e, m) = rules::start_ability(cx, user, ability);
            let uid = id(cx.s, user);
            cx.log(|| format!("{uid}'s {} is cancelled; its {e}E {m}M are spent", ability.name()));
            rules::after_attack(cx)
        }
        Used::Attack(_) => rules::after_attack(cx),
        Used::BeforeRoll(k, ..) => rules::offer_before_roll(cx, k),
        Used::OnHit(k, _) => rules::offer_on_hit(cx, k),
        Used::Backing(k, _) => rules::offer_before_roll(cx, k),
        Used::Kiss(u, _) => rules::activation_goes_on(cx, u),
    }
}

/// Trip's special melee attack (Fray's reading: D10 + Att against Def + H, as an ability attack,
/// reach 2, no harm): whether it hits.
fn trip_hits(cx: &mut Cx, r: u8, u: u8) -> Result<bool, RuleError> {
    let att = rules::att_of(cx.s, r);
    let need = rules::def_of(cx.s, u) + cx.s.options.hit_threshold;
    let n = rules::hit_die(cx, r, u, |n| n == 10 || n + att >= need)?;
    let hit = n == 10 || n + att >= need;
    let (rid, uid) = (id(cx.s, r), id(cx.s, u));
    cx.log(|| {
        format!(
            "{rid} trips at {uid}: {n} + Att {att} = {} against {need}: {} (C-GL-TRIP)",
            n + att,
            if hit { "a hit" } else { "a miss" }
        )
    });
    Ok(hit)
}

// ---------------------------------------------------------------- Counter Attack and Challenge

/// The melee reach of `u`: its longest melee weapon's, if it has one.
pub fn melee_reach(s: &State, u: u8) -> Option<i32> {
    s.card(u).weapons.iter().map(rules::reach).filter(|(_, ranged)| !ranged).map(|(r, _)| r).max()
}

/// Whether a step from `p` to `q` takes `u` into (`enter`) or out of (`!enter`) the melee reach
/// of `e`.
fn crosses(s: &State, e: u8, p: Pos, q: Pos, enter: bool) -> bool {
    let (Some(at), Some(r)) = (s.u(e).at, melee_reach(s, e)) else { return false };
    let (was, is) = (dist(p, at) <= r, dist(q, at) <= r);
    if enter { !was && is } else { was && !is }
}

/// Enemies of `u` whose reach it enters or leaves and who would answer: with Counter Attack when
/// it enters, Challenge when it leaves.
fn watchers(s: &State, u: u8) -> Vec<(u8, bool)> {
    let side = s.u(u).side;
    s.standing()
        .filter(|&e| s.u(e).side != side)
        .flat_map(|e| {
            let counter = effect_cost(s, e, "Counter Attack").is_some();
            let challenge = effect_cost(s, e, "Challenge").is_some();
            [(e, true, counter), (e, false, challenge)]
        })
        .filter(|&(_, _, has)| has)
        .map(|(e, enter, _)| (e, enter))
        .collect()
}

/// The way a movement action of `u` goes to `to`: the fewest spaces (as [`rules::destinations`]
/// counts them), and among those the way past the fewest Counter Attacks and Challenges (Fray's
/// reading: the mover picks its way; the game offers only where it ends).
pub fn path_to(s: &State, u: u8, to: Pos) -> Vec<Pos> {
    let Some(from) = s.u(u).at else { return vec![to] };
    let (w, h) = (s.width, s.height);
    let side = s.u(u).side;
    let idx = |p: Pos| (p.y * w + p.x) as usize;
    let watch = watchers(s, u);
    let mut best = vec![(i32::MAX, i32::MAX); (w * h) as usize];
    let mut came = vec![None; (w * h) as usize];
    best[idx(from)] = (0, 0);
    let mut open = vec![from];
    while let Some(i) = (0..open.len()).min_by_key(|&i| best[idx(open[i])]) {
        let p = open.swap_remove(i);
        if p == to {
            break;
        }
        let here = best[idx(p)];
        for q in p.neighbours() {
            if !s.open(q) || s.at(q).is_some_and(|o| s.u(o).side != side && !crate::abilities::passes(s, u, o)) {
                continue;
            }
            let Some(c) = crate::terrain::step_cost(s, u, p, q) else { continue };
            let seen = watch.iter().filter(|&&(e, enter)| crosses(s, e, p, q, enter)).count() as i32;
            let cost = (here.0 + c, here.1 + seen);
            if cost < best[idx(q)] {
                best[idx(q)] = cost;
                came[idx(q)] = Some(p);
                if !open.contains(&q) {
                    open.push(q);
                }
            }
        }
    }
    let mut path = vec![to];
    let mut at = to;
    while let Some(p) = came[idx(at)] {
        path.push(p);
        at = p;
    }
    if at != from {
        return vec![from, to];
    }
    path.reverse();
    path
}

/// A movement action of `u` to `to` (paid): it goes square by square (C-BAT-6b).
pub fn start_walk(cx: &mut Cx, u: u8, kind: MoveKind, to: Pos) -> Result<(), RuleError> {
    let path = path_to(cx.s, u, to);
    walk(cx, Walk { unit: u, kind, path, step: 1, challenged: false, asked: Vec::new() })
}

/// The enemies who may Counter Attack the step under way: it enters their melee reach, they may
/// react and pay, and were not asked yet in this walk (C-GL-COUNTER-ATTACK).
pub fn counter_attackers(s: &State, w: &Walk) -> Vec<u8> {
    let (p, q) = (w.path[w.step - 1], w.path[w.step]);
    let side = s.u(w.unit).side;
    s.standing()
        .filter(|&e| s.u(e).side != side && may_react(s, e) && !w.asked.contains(&e))
        .filter(|&e| affords(s, e, "Counter Attack").is_some() && crosses(s, e, p, q, true))
        .collect()
}

/// Goes on with a walk: at each step, Challenge by every enemy whose reach the mover leaves (an
/// effect: rolled by itself), then Counter Attack by those whose reach it enters (asked).
fn walk(cx: &mut Cx, mut w: Walk) -> Result<(), RuleError> {
    let u = w.unit;
    while w.step < w.path.len() {
        let (p, q) = (w.path[w.step - 1], w.path[w.step]);
        if !w.challenged {
            w.challenged = true;
            let side = cx.s.u(u).side;
            let challengers: Vec<u8> =
                cx.s.standing()
                    .filter(|&e| cx.s.u(e).side != side && effect_cost(cx.s, e, "Challenge").is_some())
                    .filter(|&e| crosses(cx.s, e, p, q, false))
                    .collect();
            for e in challengers {
                let (eid, uid) = (id(cx.s, e), id(cx.s, u));
                cx.log(|| format!("{uid} tries to leave {eid}'s melee reach: {eid} challenges it (C-GL-CHALLENGE)"));
                let (ce, cu) = (cx.s.card(e).stats.comm, cx.s.card(u).stats.comm);
                if rules::contest(cx, e, ce, u, cu, "Command")? {
                    cx.log(|| format!("{uid} cannot move on; the Endurance stays spent (C-GL-CHALLENGE)"));
                    return arrive(cx, &w, w.step - 1, None);
                }
            }
        }
        if !counter_attackers(cx.s, &w).is_empty() {
            cx.s.pending = Pending::CounterAttack(w);
            return Ok(());
        }
        w.step += 1;
        w.challenged = false;
    }
    let last = w.path.len() - 1;
    arrive(cx, &w, last, None)
}

/// The walk ends at `path[idx]` (or the last empty square before it): the mover stands there
/// facing the way it went (C-BAT-21), Flame Wreath answers, then a Counter Attack's free strike.
fn arrive(cx: &mut Cx, w: &Walk, idx: usize, striker: Option<u8>) -> Result<(), RuleError> {
    let u = w.unit;
    let from = w.path[0];
    let end = w.path[..=idx].iter().rev().find(|&&p| p == from || cx.s.at(p).is_none()).copied().unwrap_or(from);
    let f = cx.s.um(u);
    f.at = Some(end);
    if end != from {
        f.facing = ((end.x - from.x).signum() as i8, (end.y - from.y).signum() as i8);
    }
    let (uid, e, kind) = (f.id.clone(), f.endurance, w.kind);
    let stopped = if idx + 1 < w.path.len() { " (stopped)" } else { "" };
    cx.log(|| {
        if end == from {
            format!(
                "{uid} stays on {}: its {} costs {}E all the same, {e}E left (C-BAT-6b)",
                from.key(),
                kind.word(),
                kind.cost()
            )
        } else {
            format!(
                "{uid} {}s from {} to {}{stopped} for {}E, {e}E left (C-BAT-6b)",
                kind.word(),
                from.key(),
                end.key(),
                kind.cost()
            )
        }
    });
    cx.s.pending = Pending::Menu;
    // C-BAT-20: a drop of 2 levels or more is a fall.
    crate::terrain::fall(cx, u, Some(from))?;
    if end != from {
        crate::abilities::flame_wreath(cx, u, "moves")?;
    }
    if let Some(c) = striker.filter(|&c| cx.s.u(c).at.is_some() && cx.s.u(u).at.is_some()) {
        let d = dist(cx.s.u(c).at.unwrap_or(end), end);
        let weapon = (0..cx.s.card(c).weapons.len()).find(|&i| {
            let (r, ranged) = rules::reach(&cx.s.card(c).weapons[i]);
            !ranged && d <= r
        });
        let cid = id(cx.s, c);
        match weapon {
            Some(wpn) => {
                let wn = cx.s.card(c).weapons[wpn].name.clone();
                cx.log(|| format!("{cid} strikes {uid} with the {wn}, no EC (C-GL-COUNTER-ATTACK)"));
                let mut k = Strike::new(c, u, wpn as u8, crate::battle::Special::Plain);
                k.free = true;
                return rules::open_attack(cx, k);
            }
            None => cx.log(|| format!("{uid} stopped out of {cid}'s reach: no strike (C-GL-COUNTER-ATTACK)")),
        }
    }
    rules::after_attack(cx)
}

// ---------------------------------------------------------------- Kiss of Death

/// The friends who may give `u`, now activating, the Kiss of Death: within their Comm, able to
/// react and pay; not on a character Immune to Slay unless the table plays the skill table's
/// reading (C-GL-KISS-OF-DEATH).
pub fn kissers(s: &State, u: u8) -> Vec<u8> {
    if s.u(u).kissed || (!s.options.kiss_immune && effect_cost(s, u, "Immune to Slay").is_some()) {
        return Vec::new();
    }
    let side = s.u(u).side;
    s.standing()
        .filter(|&r| r != u && s.u(r).side == side && may_react(s, r))
        .filter(|&r| within(s, r, u, s.card(r).stats.comm) && affords(s, r, "Kiss of Death").is_some())
        .collect()
}

/// Kiss of Death (paid): `u` gets back all its Endurance and Mana, loses its injuries and status
/// tokens, and is defeated at the end of its recovery step; then its activation goes on.
fn kiss(cx: &mut Cx, u: u8, r: u8) -> Result<(), RuleError> {
    let (end, mana) = (cx.s.card(u).deploy_endurance, cx.s.card(u).stats.mana);
    let f = cx.s.um(u);
    f.endurance = f.endurance.max(end);
    f.mana = f.mana.max(mana);
    f.injuries = 0;
    f.stun = 0;
    f.hex = 0;
    f.poison = 0;
    f.flee = 0;
    f.flee_from = None;
    f.kissed = true;
    let (uid, e, m) = (f.id.clone(), f.endurance, f.mana);
    let rid = id(cx.s, r);
    cx.log(|| {
        format!(
            "{rid} gives {uid} the Kiss of Death for 2E 2M: {e}E, {m}M, no injuries nor tokens, and it falls in its recovery (C-GL-KISS-OF-DEATH)"
        )
    });
    rules::activation_goes_on(cx, u)
}

// ---------------------------------------------------------------- questions and answers

/// The question of a pending reaction of this module.
pub fn question(s: &State) -> Option<Decision> {
    let ask = |side: u8, prompt: String, mut options: Vec<DecisionOption>| {
        options.push(DecisionOption::new("pass", "no reaction"));
        Some(Decision { seat: SIDES[side as usize].into(), unit: None, kind: "reaction".into(), prompt, options })
    };
    match &s.pending {
        Pending::Backing(k) => {
            let options = backers(s, k)
                .into_iter()
                .map(|r| {
                    let (e, m) = ability_cost(s, r, "Tactical Strike").unwrap_or_default();
                    DecisionOption::new(
                        format!("tactical-strike-{}", s.u(r).id),
                        format!("Tactical Strike by {}: W-Att +2 and Pow +1 for this attack ({e}E {m}M)", s.u(r).id),
                    )
                })
                .collect();
            let prompt = format!("{} attacks {}: back the attack?", s.u(k.attacker).id, s.u(k.target).id);
            ask(s.u(k.attacker).side, prompt, options)
        }
        Pending::Interrupt(i) => {
            let u = i.used.user();
            let what = i.used.name();
            let options = interrupters(s, i)
                .into_iter()
                .map(|(r, name, e, m)| {
                    let does = if name == "Trip" {
                        format!("a special melee attack; a hit cancels the {what}")
                    } else {
                        format!("negate the {what}")
                    };
                    DecisionOption::new(
                        format!("{}-{}", slug(name), s.u(r).id),
                        format!("{name} by {}: {does} ({e}E {m}M)", s.u(r).id),
                    )
                })
                .collect();
            ask(1 - s.u(u).side, format!("{} uses {what}: react?", s.u(u).id), options)
        }
        Pending::CounterAttack(w) => {
            let q = w.path[w.step];
            let options = counter_attackers(s, w)
                .into_iter()
                .map(|r| {
                    let (e, m) = ability_cost(s, r, "Counter Attack").unwrap_or_default();
                    DecisionOption::new(
                        format!("counter-attack-{}", s.u(r).id),
                        format!(
                            "Counter Attack by {}: a Command contest; a win stops the move at {} for a free strike ({e}E {m}M)",
                            s.u(r).id,
                            q.key()
                        ),
                    )
                })
                .collect();
            let prompt = format!("{} enters melee reach at {}: react?", s.u(w.unit).id, q.key());
            ask(1 - s.u(w.unit).side, prompt, options)
        }
        Pending::Kiss(u) => {
            let options = kissers(s, *u)
                .into_iter()
                .map(|r| {
                    let (e, m) = ability_cost(s, r, "Kiss of Death").unwrap_or_default();
                    DecisionOption::new(
                        format!("kiss-of-death-{}", s.u(r).id),
                        format!(
                            "Kiss of Death by {}: {} recovers everything and falls in its recovery ({e}E {m}M)",
                            s.u(r).id,
                            s.u(*u).id
                        ),
                    )
                })
                .collect();
            ask(s.u(*u).side, format!("{} activates: react?", s.u(*u).id), options)
        }
        _ => None,
    }
}

/// Answers the pending reaction of this module with option `choice` (already checked as offered).
pub fn answer(cx: &mut Cx, choice: &str) -> Result<(), RuleError> {
    let unknown = || RuleError::malformed(format!("{choice}: no such reaction"));
    let by = |s: &State, prefix: &str| {
        choice.strip_prefix(prefix).and_then(|rest| rest.strip_prefix('-')).and_then(|who| s.find(who))
    };
    match cx.s.pending.clone() {
        Pending::Backing(mut k) => {
            if choice == "pass" {
                return rules::offer_before_roll(cx, k);
            }
            let r = by(cx.s, "tactical-strike").ok_or_else(unknown)?;
            let (e, m) = ability_cost(cx.s, r, "Tactical Strike").unwrap_or_default();
            rules::pay(cx, r, e);
            cx.s.um(r).mana -= m;
            k.reacted |= Strike::bit("Tactical Strike");
            if interrupt(cx, Used::Backing(k.clone(), r)) {
                return Ok(());
            }
            back(cx, k, r)
        }
        Pending::Interrupt(mut i) => {
            if choice == "pass" {
                return resume(cx, i.used);
            }
            let (r, name) = match (by(cx.s, "trip"), by(cx.s, "distract")) {
                (Some(r), _) => (r, "Trip"),
                (_, Some(r)) => (r, "Distract"),
                _ => return Err(unknown()),
            };
            let (e, m) = ability_cost(cx.s, r, name).unwrap_or_default();
            rules::pay(cx, r, e);
            cx.s.um(r).mana -= m;
            let (rid, uid, what) = (id(cx.s, r), id(cx.s, i.used.user()), i.used.name());
            if name == "Distract" {
                cx.log(|| format!("{rid} distracts {uid} for {e}E: the {what} is negated (C-GL-DISTRACT)"));
                return negate(cx, i.used);
            }
            cx.log(|| format!("{rid} reacts with Trip for {m}M (C-GL-TRIP)"));
            if trip_hits(cx, r, i.used.user())? {
                cx.log(|| format!("{uid} is tripped: the {what} is cancelled, no harm done (C-GL-TRIP)"));
                return negate(cx, i.used);
            }
            i.tried.push(r);
            if interrupters(cx.s, &i).is_empty() {
                return resume(cx, i.used);
            }
            cx.s.pending = Pending::Interrupt(i);
            Ok(())
        }
        Pending::CounterAttack(mut w) => {
            if choice == "pass" {
                let asked = counter_attackers(cx.s, &w);
                w.asked.extend(asked);
                return walk(cx, w);
            }
            let r = by(cx.s, "counter-attack").ok_or_else(unknown)?;
            let (e, _) = ability_cost(cx.s, r, "Counter Attack").unwrap_or_default();
            rules::pay(cx, r, e);
            w.asked.push(r);
            let (rid, uid, q) = (id(cx.s, r), id(cx.s, w.unit), w.path[w.step]);
            cx.log(|| {
                format!(
                    "{uid} enters {rid}'s melee reach at {}: {rid} counter attacks for {e}E (C-GL-COUNTER-ATTACK)",
                    q.key()
                )
            });
            let (cr, cu) = (cx.s.card(r).stats.comm, cx.s.card(w.unit).stats.comm);
            if rules::contest(cx, r, cr, w.unit, cu, "Command")? {
                cx.log(|| format!("{uid}'s movement stops (C-GL-COUNTER-ATTACK)"));
                let at = w.step;
                return arrive(cx, &w, at, Some(r));
            }
            walk(cx, w)
        }
        Pending::Kiss(u) => {
            if choice == "pass" {
                return rules::activation_goes_on(cx, u);
            }
            let r = by(cx.s, "kiss-of-death").ok_or_else(unknown)?;
            let (e, m) = ability_cost(cx.s, r, "Kiss of Death").unwrap_or_default();
            rules::pay(cx, r, e);
            cx.s.um(r).mana -= m;
            if interrupt(cx, Used::Kiss(u, r)) {
                return Ok(());
            }
            kiss(cx, u, r)
        }
        _ => Err(unknown()),
    }
}
