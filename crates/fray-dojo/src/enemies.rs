//! The enemy chapter (D-EN-*): the forces of `content/dojo/enemies.toml`, built from their Styles
//! and Forms into units; the Stooges' rules (a member a die, one action a member, Reinforcements);
//! and fights of the heroes of an encounter against a chosen force, with the sides' health bars
//! evened out (D-CMP-2).

pub use crate::content::enemy_file::{EnemyDef, EnemyFile, FILE, FORCE_SIDES, Force, check, read};
use crate::content::{Content, Obstacle};
pub use crate::figures::{figures, of, place_members, spots, twins};
use crate::frames::{Frame, StoogeStep};
use crate::rules;
use crate::setup::UnitSpec;
use crate::state::{Ctx, Event};
use crate::state::{Kind, State};
use fray_core::decision::{Decision, DecisionOption};
use fray_core::engine::Flow;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The Stance text `setup` reads for an enemy's Stance: as the file writes it (a Forbidden
/// Stance of two Forms included, D-STN-4).
pub fn playable_stance(s: &str) -> String {
    s.to_string()
}

/// The unit an enemy makes, standing on `at`; `n` keeps ids apart when one enemy comes twice.
pub fn unit_spec(e: &EnemyDef, at: Pos, n: usize) -> UnitSpec {
    UnitSpec {
        id: if n == 0 { e.id.clone() } else { format!("{}-{}", e.id, n + 1) },
        name: Some(e.name.clone()),
        side: "enemies".into(),
        kind: e.kind,
        bars: e.bars,
        at: [at.x, at.y],
        stances: e.stances.iter().map(|s| playable_stance(s)).collect(),
        hp: None,
        broken: None,
        shield: None,
        tokens: BTreeMap::new(),
        challenge: None,
        pool: Vec::new(),
        out: false,
        archetypes: e.archetype.iter().cloned().collect(),
        build: e.build.clone(),
        skills: Vec::new(),
        frantic: Vec::new(),
        forms: Vec::new(),
        styles: Vec::new(),
        copies: Vec::new(),
        control: e.control.clone(),
        shape: e.shape.clone(),
    }
}

/// An enemy side file (`fray play dojo --away FILE`): the forces or enemies to fight, and how
/// the heroes share out the bars they lack (D-CMP-2).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideFile {
    /// Force ids (a whole faction) or enemy ids, in order.
    pub enemies: Vec<String>,
    /// `whole` (spare bars go whole to the heroes in turn) or `even` (their HP is spread over
    /// every hero and any hero may take the spare turns).
    #[serde(default)]
    pub uneven: Option<String>,
    /// Bonuses and Penalties handed out as the fight starts (D-BON-*, D-PEN-*, D-CMP-5).
    #[serde(default)]
    pub stake: Vec<crate::stakes::StakeSpec>,
    /// A three-way battle (D-CMP-4): forces or enemies of a second enemy team, the rivals
    /// (Team B), built like the first.
    #[serde(default)]
    pub rivals: Vec<String>,
}

/// The side file a built-in name stands for (`fray play dojo --away angel`).
pub fn side_text(name: &str) -> Option<&'static str> {
    FORCE_SIDES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The encounter's units with its enemies replaced by those `side` names, placed at the far end
/// of the map from the heroes (D-TERR-3: the sides start at opposite ends), every problem at once.
pub fn with_force(
    path: &str,
    content: &Content,
    side: &SideFile,
    rows: &[String],
    units: &[Spanned<UnitSpec>],
    ambush: bool,
) -> Result<Vec<Spanned<UnitSpec>>, Vec<String>> {
    let file = &content.enemies;
    let mut errors = Vec::new();
    let mut chosen = Vec::new();
    let mut rivals = Vec::new();
    for (field, names, into) in [("enemies", &side.enemies, &mut chosen), ("rivals", &side.rivals, &mut rivals)] {
        for n in names {
            match file.named(n) {
                Some(es) => into.extend(es),
                None => {
                    errors.push(format!("{path}: field `{field}`: no force or enemy {n:?} (fray rules dojo --list)"))
                }
            }
        }
    }
    if chosen.is_empty() && errors.is_empty() {
        errors.push(format!("{path}: field `enemies`: name at least one force or enemy"));
    }
    if let Some(u) = &side.uneven
        && u != "whole"
        && u != "even"
    {
        errors.push(format!("{path}: field `uneven`: whole or even"));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let heroes: Vec<&Spanned<UnitSpec>> = units.iter().filter(|u| u.get_ref().side == "heroes").collect();
    let taken: Vec<Pos> = heroes.iter().map(|u| Pos::new(u.get_ref().at[0], u.get_ref().at[1])).collect();
    let mut open = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let p = Pos::new(x as i32, y as i32);
            if c != '#' && c != '^' && !taken.contains(&p) {
                open.push(p);
            }
        }
    }
    // Farthest from the nearest hero first; then by row and column, so the set-up is fixed.
    let near = |p: Pos| taken.iter().map(|&h| crate::effects::dist(p, h)).min().unwrap_or(0);
    open.sort_by_key(|&p| (-near(p), p.y, p.x));
    if open.len() < chosen.len() + rivals.len() {
        return Err(vec![format!("{path}: {} enemies and {} open squares", chosen.len() + rivals.len(), open.len())]);
    }
    // D-TERR-3, D-SKL-5: in an Ambush the heroes stand first and the enemies close in around them.
    if ambush {
        let first = surround(&open, &taken, chosen.len());
        open.retain(|p| !first.contains(p));
        open.splice(0..0, first);
    }
    let mut out: Vec<Spanned<UnitSpec>> = heroes.into_iter().cloned().collect();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    let placed = chosen.len();
    // D-RNG-5: a big enemy takes the first square of the order where all of it fits.
    let mut used: Vec<Pos> = Vec::new();
    let fit = |e: &EnemyDef, at: Pos, used: &mut Vec<Pos>| -> Pos {
        let archetypes: Vec<String> = e.archetype.iter().cloned().collect();
        let at = match crate::big::offsets_for(&archetypes, &e.shape) {
            Ok(Some(o)) => {
                let at = crate::big::first_fit(&open, used, &o).unwrap_or(at);
                used.extend(o.iter().map(|&(dx, dy)| at.offset(dx, dy)));
                at
            }
            _ => at,
        };
        used.push(at);
        at
    };
    let small: Vec<Pos> = open.clone();
    let mut next = small.iter().copied();
    for e in &chosen {
        let at = next.by_ref().find(|p| !used.contains(p)).unwrap_or(Pos::new(0, 0));
        let at = fit(e, at, &mut used);
        let n = count.entry(e.id.as_str()).or_default();
        out.push(Spanned::new(0..0, unit_spec(e, at, *n)));
        *n += 1;
    }
    // D-CMP-4: the rivals on the open squares left farthest from both other sides.
    let mut rest: Vec<Pos> = open.iter().copied().filter(|p| !used.contains(p)).collect();
    let _ = placed;
    let others: Vec<Pos> = out.iter().map(|u| Pos::new(u.get_ref().at[0], u.get_ref().at[1])).collect();
    let apart = |p: Pos| others.iter().map(|&h| crate::effects::dist(p, h)).min().unwrap_or(0);
    rest.sort_by_key(|&p| (-apart(p), p.y, p.x));
    for e in &rivals {
        let Some(at) = rest.iter().copied().find(|p| !used.contains(p)) else { break };
        let at = fit(e, at, &mut used);
        let n = count.entry(e.id.as_str()).or_default();
        let mut spec = unit_spec(e, at, *n);
        spec.side = crate::state::SIDES[2].into();
        out.push(Spanned::new(0..0, spec));
        *n += 1;
    }
    Ok(out)
}

/// `n` squares of `open` around the heroes standing on `heroes` (an Ambush, D-TERR-3): the ring
/// nearest them first, its squares taken evenly all the way round (by angle about the heroes'
/// middle), then the next ring out.
fn surround(open: &[Pos], heroes: &[Pos], n: usize) -> Vec<Pos> {
    let near = |p: Pos| heroes.iter().map(|&h| crate::effects::dist(p, h)).min().unwrap_or(0);
    let count = heroes.len().max(1) as f64;
    let (cx, cy) = (
        heroes.iter().map(|h| f64::from(h.x)).sum::<f64>() / count,
        heroes.iter().map(|h| f64::from(h.y)).sum::<f64>() / count,
    );
    let mut rings: BTreeMap<i32, Vec<Pos>> = BTreeMap::new();
    for &p in open {
        rings.entry(near(p)).or_default().push(p);
    }
    let mut out = Vec::new();
    for (_, mut ring) in rings {
        let left = n - out.len();
        if left == 0 {
            break;
        }
        let angle = |p: &Pos| (f64::from(p.y) - cy).atan2(f64::from(p.x) - cx);
        ring.sort_by(|a, b| angle(a).total_cmp(&angle(b)).then((a.y, a.x).cmp(&(b.y, b.x))));
        let take = left.min(ring.len());
        out.extend((0..take).map(|j| ring[j * ring.len() / take]));
    }
    out
}

/// D-CMP-2: the side holding fewer health bars gets the difference, so both sides take as many
/// turns a round. The heroes take spare bars whole, one hero after another (`even`: the spare
/// bars' HP spread over every hero, rounded up, and open slots any hero fills); the enemies pile
/// them onto their Bosses (at most 5 each, D-EN-14). Returns what was done, for the journal's
/// reader.
pub fn even_out(state: &mut State, even: bool) -> Option<String> {
    let bars = |s: &State, side: u8| -> u32 {
        s.units.iter().filter(|x| x.side == side).map(|x| x.bars as u32).sum::<u32>() + s.meter.open[side as usize]
    };
    let (h, e) = (bars(state, 0), bars(state, 1));
    if h < e {
        let spare = e - h;
        let heroes: Vec<usize> = (0..state.units.len()).filter(|&i| state.units[i].side == 0).collect();
        if heroes.is_empty() {
            return None;
        }
        if even {
            let extra = (spare * state.options.weight.hp() as u32).div_ceil(heroes.len() as u32) as i32;
            for &i in &heroes {
                let x = &mut state.units[i];
                x.bar_max += extra;
                x.hp += extra;
            }
            state.meter.add_open(0, spare);
            return Some(format!("the heroes share {spare} spare bar(s): +{extra} HP a hero, {spare} open slot(s)"));
        }
        for k in 0..spare as usize {
            let i = heroes[k % heroes.len()];
            state.units[i].bars += 1;
            state.meter.turns[i] += 1;
        }
        return Some(format!("the heroes take {spare} spare bar(s), one hero after another"));
    }
    if e < h {
        let bosses: Vec<usize> =
            (0..state.units.len()).filter(|&i| state.units[i].side == 1 && state.units[i].kind == Kind::Boss).collect();
        let mut spare = h - e;
        let mut given = 0;
        'outer: while spare > 0 {
            let mut any = false;
            for &i in &bosses {
                if spare == 0 {
                    break 'outer;
                }
                if state.units[i].bars < 5 {
                    state.units[i].bars += 1;
                    state.meter.turns[i] += 1;
                    spare -= 1;
                    given += 1;
                    any = true;
                }
            }
            if !any {
                break;
            }
        }
        if given > 0 {
            return Some(format!("the Bosses take {given} more bar(s)"));
        }
    }
    None
}

// ---------------------------------------------------------------- the Stooges (D-EN-3..D-EN-9)

/// Whether `u` is a Stooge group.
pub fn stooges(s: &State, u: u8) -> bool {
    s.u(u).kind == Kind::Stooges
}

/// A Stooge group's members: one for each die its Stance has (D-EN-4), Wild's bonus dice left
/// out (D-G-41: the chapter counts the dice a Stance always rolls). With `stooge-figures`, the
/// Stooges it has in play.
pub fn members(s: &State, u: u8) -> usize {
    if s.options.stooge_figures {
        return if s.u(u).active() { 1 + crate::figures::of(s, u).len() } else { 0 };
    }
    crate::figures::dice_members(s, u)
}

/// Actions the group's members took this turn (D-EN-5; Reinforcements is the fresh member's).
pub fn acted(s: &State, u: u8) -> usize {
    s.marks.acted.iter().filter(|&&v| v == u).count()
}

/// Whether a member of `u` may still act this turn (D-EN-5); always, for anyone but Stooges.
/// A one-Action Stance (Reversal) holds the whole group to one action a turn (D-TURN-6).
pub fn member_free(s: &State, u: u8) -> bool {
    !stooges(s, u) || acted(s, u) < members(s, u)
}

// ---------------------------------------------------------------- Stooges as figures (D-EN-6, D-EN-7)
//
// With the table option `stooge-figures`, each Stooge of a group stands on its own square. The
// group's unit stands where the Stooge taking the lead does (the one acting, or the one an
// enemy aims at); the others are listed in `State::members`. They share the group's bar, so a
// hit on any of them hurts the group.

/// The Stooge on `p` takes its group's lead, so what follows (an action, a push) is its own.
pub fn lead(cx: &mut Ctx, u: u8, p: Pos) {
    if cx.s.u(u).at != Some(p) && of(cx.s, u).contains(&p) {
        let who = cx.s.who(u);
        cx.emit(Event::Lead { who, at: p });
    }
}

/// D-EN-7: the Stooge on the group's square leaves play (over an Edge); another takes the lead
/// and the group fights on. False when it was the last one.
pub fn lose_lead(cx: &mut Ctx, u: u8) -> bool {
    let (Some(old), Some(&next)) = (cx.s.u(u).at, of(cx.s, u).first()) else { return false };
    let who = cx.s.who(u);
    cx.emit(Event::Lead { who: who.clone(), at: next });
    cx.emit(Event::MemberLost { of: who, at: old });
    true
}

/// A group is Taken Out: every Stooge of it goes at once (D-EN-7); they never come back (D-EN-9).
pub fn all_gone(cx: &mut Ctx, u: u8) {
    for p in of(cx.s, u) {
        let of = cx.s.who(u);
        cx.emit(Event::MemberLost { of, at: p });
    }
}

/// After `u` paid for an Action: Reinforcements brings in a fresh Stooge once it has healed
/// (D-EN-8), and an Action that let the group's unit move `moves` lets every other Stooge move as
/// far once it is over (D-EN-6). The frames pushed here run after the Action.
/// The Twins: after an Action that moved one, the other may move 1.
pub fn after_action(cx: &mut Ctx, u: u8, key: crate::state::ActionKey, moves: i32) {
    if twins(cx.s, u) && moves > 0 {
        let left = of(cx.s, u);
        cx.push(Frame::Stooges { u, step: StoogeStep::Move { left, n: 1, k: 1 } });
        return;
    }
    if !cx.s.options.stooge_figures || !stooges(cx.s, u) {
        return;
    }
    if key == crate::state::ActionKey::Reinforcements {
        cx.push(Frame::Stooges { u, step: StoogeStep::Fresh });
    } else if moves > 0 {
        let left = of(cx.s, u);
        cx.push(Frame::Stooges { u, step: StoogeStep::Move { left, n: moves, k: moves } });
    }
}

/// D-EN-6: a Stooge spent Speed on a step: every other one may move 1 (the other twin too).
pub fn after_step(cx: &mut Ctx, u: u8) {
    if figures(cx.s, u) && cx.s.u(u).active() {
        let left = of(cx.s, u);
        if !left.is_empty() {
            cx.push(Frame::Stooges { u, step: StoogeStep::Move { left, n: 1, k: 1 } });
        }
    }
}

/// D-OBS-5: each Stooge standing on a Trap as a turn ends hurts its group for 1.
pub fn on_traps(cx: &mut Ctx) {
    let on: Vec<(Pos, u8)> =
        cx.s.members.iter().filter(|m| cx.s.obstacle(m.0) == Some(Obstacle::Trap)).copied().collect();
    for (p, u) in on {
        if cx.s.u(u).active() {
            rules::trapped(cx, u, p);
        }
    }
}

/// The squares a Stooge on `p` may step to: empty, and no Edge.
fn stooge_steps(s: &State, p: Pos) -> Vec<Pos> {
    p.neighbours().into_iter().filter(|&q| s.empty(q) && s.obstacle(q) != Some(Obstacle::Edge)).collect()
}

/// The question a Stooge group's frame puts, if any.
pub fn question(s: &State, u: u8, step: &StoogeStep) -> Option<Decision> {
    if let StoogeStep::Endless { left } = step {
        return crate::endless_stooges::question(s, u, *left);
    }
    if !s.u(u).active() {
        return None;
    }
    let name = &s.u(u).name;
    let (kind, prompt, options) = match step {
        StoogeStep::Move { left, k, .. } => {
            let p = *left.first()?;
            if !of(s, u).contains(&p) || *k <= 0 {
                return None;
            }
            let mut options: Vec<DecisionOption> = stooge_steps(s, p)
                .into_iter()
                .map(|q| DecisionOption::new(format!("stooge:{}>{}", p.key(), q.key()), format!("to {}", q.key())))
                .collect();
            if options.is_empty() {
                return None;
            }
            options.push(DecisionOption::new("stop", "this Stooge stays"));
            ("stooge-step", format!("{name}: the Stooge on {} may move ({k} left)", p.key()), options)
        }
        StoogeStep::Endless { .. } => return None,
        StoogeStep::Fresh => (
            "square",
            format!("{name}: where does the fresh Stooge come in?"),
            s.map
                .squares()
                .filter(|&q| s.empty(q) && s.obstacle(q) != Some(Obstacle::Edge))
                .map(|q| DecisionOption::square(q, q.key()))
                .collect::<Vec<_>>(),
        ),
    };
    (!options.is_empty()).then(|| Decision {
        seat: crate::state::SIDES[s.u(u).side as usize].into(),
        unit: Some(s.u(u).id.to_string()),
        kind: kind.into(),
        prompt,
        options,
    })
}

/// A Stooge group's frame comes up: it waits for its question, or moves on to the next Stooge.
pub fn advance(cx: &mut Ctx, u: u8, step: StoogeStep) -> Result<Flow, RuleError> {
    if question(cx.s, u, &step).is_some() {
        return Ok(cx.wait(Frame::Stooges { u, step }));
    }
    // D-OPT-4: every fresh Stooge is in (or there is no room left): the group heals.
    if let StoogeStep::Endless { .. } = step {
        crate::endless_stooges::done(cx, u);
        return Ok(Flow::Continue);
    }
    if let StoogeStep::Move { mut left, n, .. } = step
        && !left.is_empty()
        && cx.s.u(u).active()
    {
        left.remove(0);
        cx.push(Frame::Stooges { u, step: StoogeStep::Move { left, n, k: n } });
    }
    Ok(Flow::Continue)
}

/// `u` answers its Stooges' question (the option was offered).
pub fn answer(cx: &mut Ctx, u: u8, step: StoogeStep, option: &str) -> Result<(), RuleError> {
    match step {
        StoogeStep::Endless { left } => {
            let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("a square"))?;
            crate::endless_stooges::place(cx, u, q, left);
        }
        StoogeStep::Fresh => {
            let q = Pos::parse(option).ok_or_else(|| RuleError::malformed("a square"))?;
            let of = cx.s.who(u);
            cx.emit(Event::MemberPlaced { of, at: q });
        }
        StoogeStep::Move { mut left, n, k } => {
            if option == "stop" {
                left.remove(0);
                cx.push(Frame::Stooges { u, step: StoogeStep::Move { left, n, k: n } });
                return Ok(());
            }
            let to = option
                .split_once('>')
                .and_then(|(_, q)| Pos::parse(q))
                .ok_or_else(|| RuleError::malformed("a Stooge's step"))?;
            let from = left[0];
            let of = cx.s.who(u);
            cx.emit(Event::MemberMoved { of, from, to });
            left[0] = to;
            cx.push(Frame::Stooges { u, step: StoogeStep::Move { left, n, k: k - 1 } });
            // D-OBS-5: a Trap entered hurts the group.
            if cx.s.obstacle(to) == Some(Obstacle::Trap) {
                rules::trapped(cx, u, to);
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- the lone Boss (D-OUT-5, D-EN-15)

/// Whether `u` is an enemy Boss with no other enemy left in the fight: an Edge does not take it
/// out (D-OUT-5; D-G-06: Fray reads the enemy chapter's "last enemy standing", L4174).
pub fn lone_boss(s: &State, u: u8) -> bool {
    let x = s.u(u);
    x.kind == Kind::Boss
        && x.side == 1
        && !s.units.iter().enumerate().any(|(i, y)| i != u as usize && y.side == x.side && y.active())
}

/// Whether `x` is a Boss gone over an Edge that still fights (D-OUT-5): out of play, not out.
pub fn ringed_out(x: &crate::state::Unit) -> bool {
    x.kind == Kind::Boss && !x.out && x.at.is_none()
}

/// D-OUT-5: a lone Boss out of play when its turn starts takes 3 damage (no hit: Armor does not
/// touch it, a Shield does); at 0 HP it has lost by ring-out, otherwise it comes back on any
/// empty square and plays its turn.
pub fn ring_out_return(cx: &mut crate::state::Ctx, u: u8) {
    rules::harm(cx, None, u, 3, false, false);
    if cx.s.u(u).out {
        return;
    }
    cx.push(crate::frames::Frame::Start { u, stage: 0 });
    cx.push(crate::frames::Frame::Return { u, anywhere: true });
}

// ---------------------------------------------------------------- the look-up

/// The look-up's entries for the forces, their enemies and Reinforcements. D-G-24: each goes by
/// its own id, so the Trickster Stooges (`the-swarm`) and the Boss Archetype (`swarm`) differ.
pub fn entries(content: &Content) -> Vec<fray_core::lookup::Entry> {
    use fray_core::lookup::Entry;
    let stance_name = |s: &str| -> String {
        let parts: Vec<&str> = s.split('+').collect();
        let style = content.style(parts[0]).map_or(parts[0].to_string(), |i| content.styles[i].name.clone());
        let forms: Vec<String> = parts[1..]
            .iter()
            .map(|f| content.form(f).map_or(f.to_string(), |i| content.forms[i].name.clone()))
            .collect();
        format!("{style} {}", forms.join(" "))
    };
    let mut out = Vec::new();
    for f in &content.enemies.force {
        let names: Vec<&str> = f.enemy.iter().map(|e| e.name.as_str()).collect();
        out.push(Entry {
            id: format!("force:{}", f.id),
            name: f.name.clone(),
            kind: "force".into(),
            aliases: vec![f.id.clone()],
            text: format!(
                "An enemy force (L{}): {}. Fight it with fray play dojo --home sample --away {}.",
                f.line,
                names.join(", "),
                f.id
            ),
        });
        for e in &f.enemy {
            let stances: Vec<String> = e.stances.iter().map(|s| stance_name(s)).collect();
            let kind = match e.kind {
                Kind::Stooges => "Stooge group",
                Kind::Warrior => "Warrior",
                Kind::Boss => "Boss",
                Kind::Hero => "Hero",
            };
            let mut text = format!("{kind} of {} (L{}). Stances: {}.", f.name, e.line, stances.join(", "));
            if let Some(a) = &e.archetype {
                match content.enemies.boss_archetype.iter().find(|b| b.id == *a) {
                    Some(b) => text.push_str(&format!(" Boss Archetype: {}.", b.name)),
                    None => text.push_str(&format!(" Fused {a} ability.")),
                }
            }
            if let Some(b) = &e.build {
                text.push_str(&format!(" Build: {b}."));
            }
            if let Some(b) = e.bars {
                text.push_str(&format!(" {b} health bars."));
            }
            if let Some(n) = &e.note {
                text.push_str(&format!(" Fray: {n}"));
            }
            out.push(Entry {
                id: format!("enemy:{}", e.id),
                name: e.name.clone(),
                kind: "enemy".into(),
                aliases: vec![e.id.clone()],
                text,
            });
        }
    }
    let r = &content.enemies.reinforcements;
    out.push(Entry {
        id: r.rule.clone().unwrap_or_else(|| "D-EN-8".into()),
        name: r.name.clone(),
        kind: "action".into(),
        aliases: Vec::new(),
        text: format!("{} ({}): {}", r.name, r.cost, r.text),
    });
    out
}
