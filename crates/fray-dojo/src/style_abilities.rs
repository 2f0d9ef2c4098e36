//! The Styles' abilities (rules/dojo.md §2.3) that Fray plays beyond their `traits`: what a
//! Stance's Style does as its turn starts and ends, at the end of every turn, after a hit, and
//! how it bends sight, Fog, range, Armor and Shields. A leaf: whatever it does is queued as a
//! quiet run of effects (or one event) for the rules to resolve. Abilities work only while the
//! unit stands in that Style (D-STN-3) and is not out (D-OUT-3).

use crate::content::{Choice, Cost, Effect, Num, Obstacle, Target, Token};
use crate::frames::{Frame, Run};
use crate::state::{ActionKey, Ctx, Event, State};

/// Whether `u`'s Stance has the Style `id` and `u` is in the fight.
pub fn in_style(s: &State, u: u8, id: &str) -> bool {
    s.u(u).active() && s.style(u).is_some_and(|st| st.id == id)
}

fn quiet(cx: &mut Ctx, u: u8, ops: Vec<Effect>) {
    let mut run = Run::new(u, ActionKey::Basic(0), 0, ops);
    run.quiet = true;
    cx.push(Frame::Run(Box::new(run)));
}

/// A run for `u` aimed at `at` (its effects say `same`).
fn quiet_at(cx: &mut Ctx, u: u8, at: u8, ops: Vec<Effect>) {
    let mut run = Run::new(u, ActionKey::Basic(0), 0, ops);
    run.quiet = true;
    run.current = Some(at);
    cx.push(Frame::Run(Box::new(run)));
}

fn hit(n: i32, target: Target) -> Effect {
    Effect::Damage {
        amount: Num::N(n),
        target,
        push: 0,
        pierce: false,
        any_power: false,
        optional: false,
        reverse: false,
    }
}

fn give(token: Token, n: i32, target: Target) -> Effect {
    Effect::Give { token, n: Num::N(n), target, optional: false }
}

fn gain(token: Token, n: i32) -> Effect {
    Effect::Gain { token, n: Num::N(n) }
}

fn place(obstacle: Obstacle) -> Effect {
    Effect::Place { obstacle, adjacent: true, under: false, touching: None, around: false, within: None }
}

fn heal(target: Target) -> Effect {
    Effect::Heal { n: None, target }
}

/// Fog on `u`'s own square, over whatever obstacle is there (Dark, Mysterious).
fn fog_under(cx: &mut Ctx, u: u8) {
    if let Some(at) = cx.s.u(u).at
        && cx.s.obstacle(at) != Some(Obstacle::Fog)
    {
        cx.emit(Event::Obstacle { at, now: Some(Obstacle::Fog) });
    }
}

/// As `u`'s turn starts (after the roll): its Style's start, and the Charging and Rallying
/// allies' gifts to it.
pub fn start(cx: &mut Ctx, u: u8) {
    if !cx.s.u(u).active() {
        return;
    }
    // Charging (an ally's): move 2 as your turn starts; Rallying (an ally's, you in its range): heal.
    for w in 0..cx.s.units.len() as u8 {
        if w == u || cx.s.u(w).side != cx.s.u(u).side {
            continue;
        }
        if in_style(cx.s, w, "charging") {
            quiet(cx, u, vec![Effect::Move { n: 2 }]);
        }
        if in_style(cx.s, w, "rallying") && in_range(cx.s, w, u) {
            quiet(cx, u, vec![heal(Target::Me)]);
        }
    }
    forbidden(cx, u);
    let Some(style) = cx.s.style(u).map(|st| st.id.clone()) else { return };
    let x = cx.s.u(u);
    match style.as_str() {
        "pressure" => quiet(cx, u, vec![give(Token::Weakness, 1, Target::Enemies)]),
        "crying" => quiet(cx, u, vec![give(Token::Weakness, 1, Target::Enemies)]),
        "aura" => quiet(cx, u, vec![Effect::Shield { n: 3, target: None }]),
        "singing" => quiet(cx, u, vec![Effect::Shield { n: 2, target: None }]),
        "halcyon" if x.tokens.iter().sum::<i32>() > 0 || x.challenge.is_some() => quiet(
            cx,
            u,
            vec![Effect::RemoveToken {
                n: 1,
                target: Target::Me,
                steal: false,
                copy: false,
                to_power: false,
                all: false,
            }],
        ),
        "zombie" if x.hp <= 3 => quiet(cx, u, vec![heal(Target::Me)]),
        "mysterious" => fog_under(cx, u),
        "reflected" => quiet(cx, u, vec![place(Obstacle::Wall), place(Obstacle::Wall), place(Obstacle::Wall)]),
        "charging" => quiet(cx, u, vec![Effect::Move { n: 2 }]),
        "jumping" => quiet(cx, u, vec![jump()]),
        // Shining (L1629): every enemy next to it is pushed 1.
        "shining" => {
            shove_obstacles(cx, u);
            quiet(cx, u, vec![Effect::Push { n: Num::N(1), target: Target::AdjacentEnemies }]);
        }
        // Eye of the (L2941): a Bonus of its choice.
        "eye-of-the" => cx.push(Frame::Bonus { u }),
        // Flashy (L2557): asked first, before the other start abilities resolve.
        "flashy" => cx.push(Frame::Flashy { u }),
        _ => {}
    }
}

fn jump() -> Effect {
    Effect::Teleport {
        n: 3,
        min: 1,
        in_range: false,
        seen: false,
        onto: None,
        placed: false,
        beside_alone: false,
        spot: false,
        reach_same: false,
        target: None,
    }
}

/// Whether `t` stands within `u`'s Style range (by distance, L950).
fn in_range(s: &State, u: u8, t: u8) -> bool {
    let (Some(a), Some(b), Some(span)) = (s.u(u).at, s.u(t).at, s.style(u).and_then(|st| st.span())) else {
        return false;
    };
    let d = (a.x - b.x).abs().max((a.y - b.y).abs());
    u == t || (span.0..=span.1).contains(&d)
}

/// As `u`'s own turn ends (with the Archetypes' end abilities).
pub fn end(cx: &mut Ctx, u: u8) {
    if !cx.s.u(u).active() {
        return;
    }
    patient(cx, u);
    let Some(style) = cx.s.style(u).map(|st| st.id.clone()) else { return };
    match style.as_str() {
        "crying" => {
            quiet(cx, u, vec![Effect::Challenge { target: Target::Enemy }, give(Token::Weakness, 1, Target::Same)])
        }
        "singing" => quiet(cx, u, vec![Effect::Shield { n: 2, target: None }]),
        "dark" => fog_under(cx, u),
        "jumping" => quiet(cx, u, vec![jump()]),
        "rallying" => quiet(cx, u, vec![heal(Target::Allies)]),
        "motivating" => quiet(cx, u, vec![heal(Target::Allies), gain(Token::Inspired, 1)]),
        "training" => quiet(cx, u, vec![give(Token::Training, 1, Target::Ally)]),
        "syphon" => syphon(cx, u),
        _ => {}
    }
}

/// As any turn ends: every Slasher hurts an enemy next to it for 1, then every Winged unit may
/// move 2 (pushed first, so done after; D-G-42 leaves the order open).
pub fn every_turn_end(cx: &mut Ctx) {
    for w in 0..cx.s.units.len() as u8 {
        if in_style(cx.s, w, "winged") {
            quiet(cx, w, vec![Effect::Move { n: 2 }]);
        }
    }
    for w in 0..cx.s.units.len() as u8 {
        if in_style(cx.s, w, "slasher") {
            quiet(cx, w, vec![hit(1, Target::AdjacentEnemy)]);
        }
    }
}

/// After `by`'s hit in an action dealt `dealt` to its enemy `t`, `power` Power tokens poured in:
/// Vampire heals 1, Lightning gains a Speed, Brawling a Power (no Power spent), Incinerator
/// burns (Power spent); the target's Knockdown hits back for 1, its Distracting gives a Weakness
/// to an attacker holding none, its Taunting gains an Iron.
pub fn after_hit(cx: &mut Ctx, by: u8, t: u8, dealt: i32, power: i32) {
    if dealt <= 0 {
        return;
    }
    if in_style(cx.s, by, "vampire") {
        quiet(cx, by, vec![Effect::Heal { n: Some(1), target: Target::Me }]);
    }
    if in_style(cx.s, by, "lightning") {
        quiet(cx, by, vec![gain(Token::Speed, 1)]);
    }
    if in_style(cx.s, by, "brawling") && power == 0 {
        quiet(cx, by, vec![gain(Token::Power, 1)]);
    }
    if in_style(cx.s, by, "incinerator") && power > 0 {
        quiet_at(cx, by, t, vec![give(Token::Burning, 1, Target::Same)]);
    }
    if in_style(cx.s, t, "knockdown") && cx.s.u(by).active() {
        quiet_at(cx, t, by, vec![hit(1, Target::Same)]);
    }
    if in_style(cx.s, t, "distracting") && cx.s.u(by).has(Token::Weakness) == 0 && cx.s.u(by).active() {
        quiet_at(cx, t, by, vec![give(Token::Weakness, 1, Target::Same)]);
    }
    if in_style(cx.s, t, "taunting") {
        quiet(cx, t, vec![gain(Token::Iron, 1)]);
    }
}

/// `t`'s Shield broke: Brawling gains a Power.
pub fn shield_broke(cx: &mut Ctx, t: u8) {
    if in_style(cx.s, t, "brawling") {
        quiet(cx, t, vec![gain(Token::Power, 1)]);
    }
}

/// `u` gave `n` Weakness tokens to an enemy: Vampire gains that many Power.
pub fn gave_weakness(cx: &mut Ctx, u: u8, n: i32) {
    if n > 0 && in_style(cx.s, u, "vampire") {
        quiet(cx, u, vec![gain(Token::Power, n)]);
    }
}

/// Whether `u` sees and aims at enemies through Fog (Dark, Artillery).
pub fn through_fog(s: &State, u: u8) -> bool {
    in_style(s, u, "dark") || in_style(s, u, "artillery")
}

/// Whether `u` sees and aims through Walls (Artillery, Hidden, Reflected).
pub fn through_walls(s: &State, u: u8) -> bool {
    in_style(s, u, "artillery") || in_style(s, u, "hidden") || in_style(s, u, "reflected")
}

/// Whether `u`'s longest range is doubled: Mysterious, standing in Fog.
pub fn doubled(s: &State, u: u8) -> bool {
    in_style(s, u, "mysterious") && s.u(u).at.is_some_and(|p| s.obstacle(p) == Some(Obstacle::Fog))
}

/// How `u`'s damage treats its target: (Armor ignored, Shields, Iron and the user's Weakness
/// ignored too). Crosshair ignores all of them; Overwhelming only Armor.
pub fn piercing(s: &State, u: u8) -> (bool, bool) {
    let crosshair = in_style(s, u, "crosshair");
    (crosshair || in_style(s, u, "overwhelming"), crosshair)
}

/// Precision: 1 more damage to a target with Armor or a Shield.
pub fn precision(s: &State, u: u8, t: u8, armored: bool) -> i32 {
    i32::from(in_style(s, u, "precision") && (armored || s.u(t).shield > 0))
}

/// Whether `u` holds the Challenge of an enemy in Judgment Style (L1607): it does not roll its
/// lowest Action Die (the die of fewest faces, a fixed number by its value, D-G-15).
pub fn judged(s: &State, u: u8) -> bool {
    s.u(u).challenge.is_some_and(|c| in_style(s, c, "judgment"))
}

/// Whether Edges never take `u` out of play (Winged, Vortex, Weightless): it is never pushed
/// past the map's border, and an Edge square inside the map holds it like any other.
pub fn edge_proof(s: &State, u: u8) -> bool {
    in_style(s, u, "winged") || in_style(s, u, "vortex") || in_style(s, u, "weightless")
}

/// Whether the damage Burning or a Trap would deal `u` heals it instead (Phoenix), or does
/// nothing (a Trap, to Weightless).
pub fn phoenix(s: &State, u: u8) -> bool {
    in_style(s, u, "phoenix")
}

/// Whether a Trap hurts `u` (not Weightless).
pub fn traps_hurt(s: &State, u: u8) -> bool {
    !in_style(s, u, "weightless")
}

/// Whether Rubble costs `u` no more Speed (Weightless).
pub fn light_on_rubble(s: &State, u: u8) -> bool {
    in_style(s, u, "weightless")
}

/// How much cheaper the Unique Actions of `u`'s own Form are in Elder Style (L2670).
pub fn elder(s: &State, u: u8) -> bool {
    in_style(s, u, "elder")
}

/// `u` has just moved onto `p` by any step, move, push or pull: each Frozen enemy next to `p`
/// gives it a Weakness (L3193).
pub fn entered(cx: &mut Ctx, u: u8, p: fray_core::grid::Pos) {
    for w in 0..cx.s.units.len() as u8 {
        let next_to = cx.s.u(w).at.is_some_and(|q| q != p && (q.x - p.x).abs().max((q.y - p.y).abs()) == 1);
        if w != u && next_to && cx.s.u(w).side != cx.s.u(u).side && in_style(cx.s, w, "frozen") {
            quiet_at(cx, w, u, vec![give(Token::Weakness, 1, Target::Same)]);
        }
    }
}

/// As `u`'s turn starts: Forbidden hurts it for 2, never below 1 HP on its bar (L3014); past its
/// Shield and Armor, as the cost of a Stance.
pub fn forbidden(cx: &mut Ctx, u: u8) {
    let x = cx.s.u(u);
    if !in_style(cx.s, u, "forbidden") || x.hp <= 1 {
        return;
    }
    let d = 2.min(x.hp - 1);
    let (shield, hp, broken) = (x.shield, x.hp - d, x.broken);
    let who = cx.s.who(u);
    cx.emit(Event::Hurt { who, by: None, damage: d, shield, hp, broken });
}

/// As `u`'s turn ends: Patient's Speed tokens turn to Iron (L2650).
pub fn patient(cx: &mut Ctx, u: u8) {
    let n = cx.s.u(u).has(Token::Speed);
    if n > 0 && in_style(cx.s, u, "patient") {
        let who = cx.s.who(u);
        cx.emit(Event::Tokens { who: who.clone(), token: Token::Speed, delta: -n, why: "Patient" });
        cx.emit(Event::Tokens { who, token: Token::Iron, delta: n, why: "Patient" });
    }
}

/// After `u` aims an Action at the enemy `t` for the first time in it: Burning gives it a Burning
/// token while it holds 4 or fewer (L2097).
pub fn aimed_at(cx: &mut Ctx, u: u8, t: u8) {
    if in_style(cx.s, u, "burning") && cx.s.u(t).has(Token::Burning) <= 4 && cx.s.u(t).active() {
        quiet_at(cx, u, t, vec![give(Token::Burning, 1, Target::Same)]);
    }
}

/// After `by`'s action damaged the enemy `t`: Explosion pushes it 1 (L2115).
pub fn explosion(cx: &mut Ctx, by: u8, t: u8) {
    if in_style(cx.s, by, "explosion") && cx.s.u(t).active() {
        quiet_at(cx, by, t, vec![Effect::Push { n: Num::N(1), target: Target::Same }]);
    }
}

// ------------------------------------------------------------ more Style abilities (dojo-style)

/// A quiet run for `u` that asks it to pick one of `options` (each a name and its effects),
/// aimed at `at` when given (its effects say `same`).
fn ask_one(cx: &mut Ctx, u: u8, at: Option<u8>, options: Vec<(&str, Vec<Effect>)>) {
    let mut run = Run::new(u, ActionKey::Basic(0), 0, Vec::new());
    run.quiet = true;
    run.current = at;
    let picks = options.into_iter().map(|(name, effects)| Choice { name: name.to_string(), effects }).collect();
    run.choice = Some((picks, 1, Vec::new(), Vec::new()));
    cx.push(Frame::Run(Box::new(run)));
}

/// `u` has just paid for an Action: what its Style does once the Action is over is queued
/// under the Action's run (Singing, Unbreakable).
pub fn after_action(cx: &mut Ctx, u: u8) {
    if in_style(cx.s, u, "singing") || in_style(cx.s, u, "unbreakable") {
        cx.push(Frame::StyleAfterAction { u });
    }
}

/// An Action of `u`'s is over (L1648, L1790): Singing's Shield grows by 1 (D-G-39: a Shield is
/// only its points, so its value and its top rise together); Unbreakable gives an ally in range,
/// not itself, an Iron.
pub fn action_over(cx: &mut Ctx, u: u8) {
    let shield = cx.s.u(u).shield;
    if in_style(cx.s, u, "singing") && shield > 0 {
        let who = cx.s.who(u);
        cx.emit(Event::Shielded { who, points: shield + 1 });
    }
    if in_style(cx.s, u, "unbreakable") {
        quiet(cx, u, vec![give(Token::Iron, 1, Target::OtherAlly)]);
    }
}

/// Syphon (L1918): as its turn ends, a token it holds turns to Power, or gains a twin.
fn syphon(cx: &mut Ctx, u: u8) {
    let x = cx.s.u(u);
    if x.tokens.iter().sum::<i32>() == 0 {
        return;
    }
    let take = |to_power: bool, copy: bool| Effect::RemoveToken {
        n: 1,
        target: Target::Me,
        steal: false,
        copy,
        to_power,
        all: false,
    };
    ask_one(
        cx,
        u,
        None,
        vec![
            ("turn a token into Power", vec![take(true, false)]),
            ("gain one more of a token", vec![take(false, true)]),
        ],
    );
}

/// After `by`'s action dealt damage to `t` (an enemy or an ally, not itself): Akimbo moves 1
/// for each one damaged (L2228).
pub fn dealt(cx: &mut Ctx, by: u8, t: u8, dealt: i32) {
    if dealt > 0 && by != t && in_style(cx.s, by, "akimbo") {
        // L2239: the move is no choice; each space is its own, so it may go back and forth.
        let mut run = Run::new(by, ActionKey::Basic(0), 0, vec![Effect::Move { n: 1 }]);
        run.quiet = true;
        run.compulsory = true;
        cx.push(Frame::Run(Box::new(run)));
    }
}

/// The Style abilities a hit of an enemy's action sets off beyond [`after_hit`]'s (dojo-style):
/// Ricochet's 1 to another enemy near the one hit, Relentless's push and follow, the target's
/// Taunting move, Overwhelming's paid answer and Inferno's handing over of its Burning.
pub fn after_hit_more(cx: &mut Ctx, by: u8, t: u8, dealt: i32) {
    if dealt <= 0 {
        return;
    }
    let spot = cx.s.u(t).at;
    // Ricochet (L2294): another enemy within 3 of the one hit, seen from its square, may take 1.
    if in_style(cx.s, by, "ricochet")
        && let Some(p) = spot
    {
        let op = Effect::Damage {
            amount: Num::N(1),
            target: Target::EnemyNearSpot,
            push: 0,
            pierce: false,
            any_power: false,
            optional: true,
            reverse: false,
        };
        let mut run = Run::new(by, ActionKey::Basic(0), 0, vec![op]);
        run.quiet = true;
        run.current = Some(t);
        run.spot = Some(p);
        cx.push(Frame::Run(Box::new(run)));
    }
    // Relentless (L3085): push it 1, then step into the square it left ([`follow`]).
    if in_style(cx.s, by, "relentless")
        && cx.s.u(t).active()
        && let Some(p) = spot
    {
        let mut run = Run::new(by, ActionKey::Basic(0), 0, vec![Effect::Push { n: Num::N(1), target: Target::Same }]);
        run.quiet = true;
        run.current = Some(t);
        run.spot = Some(p);
        cx.push(Frame::Run(Box::new(run)));
    }
    // Taunting (L2599): damage from an enemy holding its Challenge lets it move 1.
    if in_style(cx.s, t, "taunting") && cx.s.u(by).challenge == Some(t) {
        quiet(cx, t, vec![Effect::Move { n: 1 }]);
    }
    // Overwhelming (L3064): a Power token pays for 1 damage and a push of 1 on the attacker.
    if in_style(cx.s, t, "overwhelming") && cx.s.u(t).has(Token::Power) > 0 && cx.s.u(by).active() {
        // The attacker first: picking `me` would make it the unit `same` names.
        let strike = vec![
            Effect::Damage {
                amount: Num::N(1),
                target: Target::Same,
                push: 1,
                pierce: false,
                any_power: false,
                optional: false,
                reverse: false,
            },
            Effect::Strip { token: Token::Power, n: 1, target: Target::Me },
        ];
        ask_one(cx, t, Some(by), vec![("spend a Power: 1 damage and a push of 1", strike), ("keep the Power", vec![])]);
    }
    // Inferno (L2137): it may hand the attacker every Burning token it holds.
    let burning = cx.s.u(t).has(Token::Burning);
    if in_style(cx.s, t, "inferno") && burning > 0 && cx.s.u(by).active() {
        let hand = vec![
            give(Token::Burning, burning, Target::Same),
            Effect::Strip { token: Token::Burning, n: burning, target: Target::Me },
        ];
        ask_one(cx, t, Some(by), vec![("hand over every Burning token", hand), ("keep them", vec![])]);
    }
}

/// Relentless: whether `run` is Relentless's own push of an enemy that stood on `from` (its run
/// marks the square; L3085).
pub fn relentless_push(s: &State, run: &Run, from: fray_core::grid::Pos) -> bool {
    run.quiet
        && run.spot == Some(from)
        && in_style(s, run.user, "relentless")
        && matches!(run.ops.first(), Some(Effect::Push { target: Target::Same, .. }))
}

/// `by` has just pushed `mover` (Rocket, L1902): it may teleport next to it.
pub fn pushed(cx: &mut Ctx, by: u8, mover: u8) {
    if by != mover && in_style(cx.s, by, "rocket") && cx.s.u(mover).active() {
        quiet_at(cx, by, mover, vec![Effect::Approach { target: Target::Same }]);
    }
}

/// Precision (L3211): an enemy `u`'s Action picks drops an Iron at once.
pub fn precision_strip(cx: &mut Ctx, u: u8, t: u8) {
    if in_style(cx.s, u, "precision") && cx.s.u(t).has(Token::Iron) > 0 {
        let who = cx.s.who(t);
        cx.emit(Event::Tokens { who, token: Token::Iron, delta: -1, why: "Precision" });
    }
}

/// `u` spent `n` Iron tokens: Armored heals 1, however many (L1839).
pub fn spent_iron(cx: &mut Ctx, u: u8, n: i32) {
    let x = cx.s.u(u);
    if n > 0 && in_style(cx.s, u, "armored") && x.hp < x.bar_max {
        let who = cx.s.who(u);
        cx.emit(Event::Healed { who, hp: x.hp + 1 });
    }
}

/// An Action or ability of `u`'s took `n` tokens away: Halcyon gains as many Iron (L1586).
pub fn removed(cx: &mut Ctx, u: u8, n: i32) {
    if n > 0 && in_style(cx.s, u, "halcyon") {
        let who = cx.s.who(u);
        cx.emit(Event::Tokens { who, token: Token::Iron, delta: n, why: "Halcyon" });
    }
}

/// `u` broke the obstacle on `q` (not a Copy): Explosion leaves an Edge there unless a unit
/// stands on it (L2116); Collateral gains a Basic token of its choice (L2903).
pub fn broke(cx: &mut Ctx, u: u8, q: fray_core::grid::Pos) {
    if in_style(cx.s, u, "explosion") && !cx.s.units.iter().any(|x| x.at == Some(q)) {
        cx.emit(Event::Obstacle { at: q, now: Some(Obstacle::Edge) });
    }
    if in_style(cx.s, u, "collateral") {
        quiet(cx, u, vec![Effect::GainBasic { n: 1 }]);
    }
}

/// Inferno (L2135): as its turn ends, once its Burning has hurt it, it gains 3 Burning.
pub fn burned(cx: &mut Ctx, u: u8) {
    if in_style(cx.s, u, "inferno") {
        let who = cx.s.who(u);
        cx.emit(Event::Tokens { who, token: Token::Burning, delta: 3, why: "Inferno" });
    }
}

/// `u`'s Shield broke: every Aura unit with `u` in its range gains an Iron (L2370).
pub fn aura_iron(cx: &mut Ctx, u: u8) {
    for w in 0..cx.s.units.len() as u8 {
        if in_style(cx.s, w, "aura") && in_range(cx.s, w, u) {
            let who = cx.s.who(w);
            cx.emit(Event::Tokens { who, token: Token::Iron, delta: 1, why: "Aura" });
        }
    }
}

/// Whether a Caged enemy stands next to `u` (L2773): it can neither gain nor spend Speed.
pub fn caged(s: &State, u: u8) -> bool {
    let Some(p) = s.u(u).at else { return false };
    (0..s.units.len() as u8).any(|w| {
        s.u(w).side != s.u(u).side
            && s.u(w).at.is_some_and(|q| (q.x - p.x).abs().max((q.y - p.y).abs()) == 1)
            && in_style(s, w, "caged")
    })
}

/// Whether `u` may not step onto `q` by Free Movement: a Shining enemy stands next to it (L1631).
pub fn shut_out(s: &State, u: u8, q: fray_core::grid::Pos) -> bool {
    (0..s.units.len() as u8).any(|w| {
        s.u(w).side != s.u(u).side
            && s.u(w).at.is_some_and(|p| p != q && (q.x - p.x).abs().max((q.y - p.y).abs()) == 1)
            && in_style(s, w, "shining")
    })
}

/// A Trap would hurt `u`: Misfortunes sends the damage to an enemy in its range (by distance), or
/// with none there gains a Power (L2972). Whether it took the damage over.
pub fn misfortune(cx: &mut Ctx, u: u8) -> bool {
    if !in_style(cx.s, u, "misfortunes") {
        return false;
    }
    let any = (0..cx.s.units.len() as u8)
        .any(|v| cx.s.u(v).side != cx.s.u(u).side && cx.s.u(v).active() && v != u && in_range(cx.s, u, v));
    if any {
        quiet(cx, u, vec![hit(1, Target::Enemy)]);
    } else {
        let who = cx.s.who(u);
        cx.emit(Event::Tokens { who, token: Token::Power, delta: 1, why: "Misfortunes" });
    }
    true
}

/// Whether entering a Trap leaves `u` unhurt (Volcanic, L2178; standing on one as a turn ends
/// still hurts).
pub fn enters_traps(s: &State, u: u8) -> bool {
    in_style(s, u, "volcanic")
}

/// `u` just left `from` by a Free Movement step: Volcanic may leave a Trap there (L2176).
pub fn stepped_off(cx: &mut Ctx, u: u8, from: fray_core::grid::Pos) {
    if in_style(cx.s, u, "volcanic") && cx.s.obstacle(from).is_none() {
        let mut run = Run::new(u, ActionKey::Basic(0), 0, vec![place(Obstacle::Trap)]);
        run.quiet = true;
        run.spot = Some(from);
        cx.push(Frame::Run(Box::new(run)));
    }
}

/// The Heroic ally that takes the larger half of the damage `t` takes (L1731): another unit of
/// its side in Heroic Style with `t` in its range (by distance), the first in the list.
pub fn heroic_guard(s: &State, t: u8) -> Option<u8> {
    (0..s.units.len() as u8)
        .find(|&w| w != t && s.u(w).side == s.u(t).side && in_style(s, w, "heroic") && in_range(s, w, t))
}

/// `u` takes the Basic Action `id`: Whip's Throw picks one unit in its range rather than next to
/// it (L2851); Ogres' Throw picks enemies in its range, as many as it likes (L2001).
pub fn throw_reach(s: &State, u: u8, id: &str, run: &mut Run) {
    if id != "throw" {
        return;
    }
    let (whip, ogres) = (in_style(s, u, "whip"), in_style(s, u, "ogres"));
    for op in run.ops.iter_mut() {
        if let Effect::Push { target, .. } = op {
            if whip {
                *target = Target::Anyone;
            } else if ogres {
                *target = Target::Enemy;
            }
        }
    }
    if ogres && !whip {
        run.more = run.more.saturating_add(s.units.len() as u8);
    }
}

/// Whip's Throw as the menu judges it: a push of someone in range.
static WHIP_THROW: Effect = Effect::Push { n: Num::N(1), target: Target::Anyone };
/// Ogres' Throw as the menu judges it: a push of an enemy in range.
static OGRES_THROW: Effect = Effect::Push { n: Num::N(1), target: Target::Enemy };

/// The push the menu judges `u`'s Basic Action `id` by, when Whip or Ogres reshape a Throw.
pub fn throw_target(s: &State, u: u8, id: &str) -> Option<&'static Effect> {
    if id != "throw" {
        None
    } else if in_style(s, u, "whip") {
        Some(&WHIP_THROW)
    } else if in_style(s, u, "ogres") {
        Some(&OGRES_THROW)
    } else {
        None
    }
}

/// `u`'s Throw or Grapple (`id`) just moved the enemy `t`: Whip hurts it for 2 (a Throw or a
/// Grapple), Ogres for 1 (a Throw).
pub fn thrown(cx: &mut Ctx, u: u8, t: u8, id: &str) {
    let n = match id {
        "throw" | "grapple" if in_style(cx.s, u, "whip") => 2,
        "throw" if in_style(cx.s, u, "ogres") => 1,
        _ => return,
    };
    quiet_at(cx, u, t, vec![hit(n, Target::Same)]);
}

/// The pairs of numbers (larger first, each pair once) a Flashy unit `u` may add into one.
pub fn flashy_pairs(s: &State, u: u8) -> Vec<(i32, i32)> {
    if !in_style(s, u, "flashy") {
        return Vec::new();
    }
    let mut v = s.u(u).pool.values().to_vec();
    v.sort_unstable_by(|a, b| b.cmp(a));
    let mut out = Vec::new();
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            if !out.contains(&(v[i], v[j])) {
                out.push((v[i], v[j]));
            }
        }
    }
    out
}

/// `by` damaged or broke `t`'s Shield: every Aura unit that is `by`'s enemy, with `by` in its
/// range (by distance), may move it 1 (L2369).
pub fn shield_hit(cx: &mut Ctx, by: u8, t: u8) {
    for w in 0..cx.s.units.len() as u8 {
        if w != by
            && cx.s.u(w).side != cx.s.u(by).side
            && in_style(cx.s, w, "aura")
            && in_range(cx.s, w, by)
            && cx.s.u(by).active()
            && t != by
        {
            quiet_at(cx, w, by, vec![Effect::Shift { n: 1, target: Target::Same }]);
        }
    }
}

/// Whether `u` spends its Basic tokens as any Basic kind (Machine, L1882).
pub fn machine(s: &State, u: u8) -> bool {
    in_style(s, u, "machine")
}

/// The price `u` pays for a `cost`: in Machine Style, a price in Basic tokens of one kind may be
/// paid in any Basic tokens.
pub fn machine_cost(s: &State, u: u8, cost: &Cost) -> Cost {
    match cost {
        Cost::Tokens(t, n) if t.basic() && machine(s, u) => {
            Cost::Mix(vec![Token::Iron, Token::Power, Token::Speed], *n)
        }
        Cost::Mix(_, n) if machine(s, u) => Cost::Mix(vec![Token::Iron, Token::Power, Token::Speed], *n),
        c => c.clone(),
    }
}

/// Shining (L1629): each obstacle next to `u` (not an Edge or a Copy) slides 1 straight away from
/// it, onto a map square holding no obstacle and nobody; with no such square it stays.
fn shove_obstacles(cx: &mut Ctx, u: u8) {
    let Some(at) = cx.s.u(u).at else { return };
    for p in at.neighbours() {
        let Some(o) = cx.s.obstacle(p).filter(|o| !matches!(o, Obstacle::Edge | Obstacle::Copy)) else { continue };
        let q = fray_core::grid::Pos::new(2 * p.x - at.x, 2 * p.y - at.y);
        if cx.s.map.contains(q) && cx.s.obstacle(q).is_none() && cx.s.empty(q) {
            cx.emit(Event::Obstacle { at: p, now: None });
            cx.emit(Event::Obstacle { at: q, now: Some(o) });
        }
    }
}

/// Vortex (L2460): standing on an Edge inside the map, every other such Edge is a square it may
/// step or move to as if next to it (the squares beyond the map's border are no places to stand).
pub fn portals(s: &State, u: u8) -> Vec<fray_core::grid::Pos> {
    let Some(at) = s.u(u).at else { return Vec::new() };
    if !in_style(s, u, "vortex") || s.obstacle(at) != Some(Obstacle::Edge) {
        return Vec::new();
    }
    // The Edges next to it are plain steps already.
    s.map
        .squares()
        .filter(|&q| (q.x - at.x).abs().max((q.y - at.y).abs()) > 1 && s.obstacle(q) == Some(Obstacle::Edge))
        .collect()
}

// ------------------------------------------------------------ Styles' last abilities (dojo-styles)

/// Puppet's (L2412): the Free Movement steps `u` may give anyone (ally or enemy, not itself) or
/// any obstacle (not an Edge or a Copy) standing within its range, by distance: (from, to).
/// A unit steps as it could itself; an obstacle goes to a map square holding nothing.
pub fn puppet_steps(s: &State, u: u8) -> Vec<(fray_core::grid::Pos, fray_core::grid::Pos)> {
    let Some(at) = s.u(u).at else { return Vec::new() };
    let Some((lo, hi)) = s.style(u).and_then(|st| st.span()).filter(|_| in_style(s, u, "puppets")) else {
        return Vec::new();
    };
    let near = |p: fray_core::grid::Pos| (lo..=hi).contains(&(p.x - at.x).abs().max((p.y - at.y).abs()));
    let mut out = Vec::new();
    for v in 0..s.units.len() as u8 {
        let Some(p) = s.u(v).at.filter(|&p| v != u && s.u(v).active() && near(p)) else { continue };
        for q in p.neighbours() {
            let open = s.empty(q) || wall_walker(s, v) && crate::bosses::wall_open(s, q);
            // Off the map is Edge: a unit may be moved over it (D-OBS-2).
            if (open || !s.map.contains(q) && !edge_proof(s, v)) && !shut_out(s, v, q) {
                out.push((p, q));
            }
        }
    }
    for p in s.map.squares().filter(|&p| near(p) && p != at) {
        let Some(o) = s.obstacle(p) else { continue };
        if matches!(o, Obstacle::Edge | Obstacle::Copy)
            || s.unit_at(p).is_some()
            || crate::copies::owner(s, p).is_some()
        {
            continue;
        }
        for q in p.neighbours() {
            if s.map.contains(q) && s.obstacle(q).is_none() && s.empty(q) {
                out.push((p, q));
            }
        }
    }
    out
}

/// The Unbreakable unit whose tokens `u` may spend (L1791): another unit of its side in
/// Unbreakable Style with `u` in its range (by distance), the first listed.
pub fn lender(s: &State, u: u8) -> Option<u8> {
    if !s.u(u).active() {
        return None;
    }
    (0..s.units.len() as u8)
        .find(|&w| w != u && s.u(w).side == s.u(u).side && in_style(s, w, "unbreakable") && in_range(s, w, u))
}

/// Whether `u` takes no Actions itself and spends its numbers on allies' (Mastermind, L2688).
pub fn mastermind(s: &State, u: u8) -> bool {
    in_style(s, u, "mastermind")
}

/// Whether `u` holds several Shields, one at work (Zen Form, L1469): a Zen Stance, or a
/// Forbidden one with Zen.
pub fn zen_shields(s: &State, u: u8) -> bool {
    s.u(u).active() && (s.form(u).is_some_and(|f| f.id == "zen") || s.form2(u).is_some_and(|f| f.id == "zen"))
}

/// Whether `u` goes through Walls as if they were empty and may stand in one (Hidden L2834,
/// Spirit L2435, Weightless L3111: every space is empty to it). Units and Copies still fill a
/// square: two figures never share one.
pub fn wall_walker(s: &State, u: u8) -> bool {
    in_style(s, u, "hidden") || in_style(s, u, "spirit") || in_style(s, u, "weightless")
}

/// Whether `u`'s Copies go through Walls as it does (Spirit, L2435).
pub fn copies_through_walls(s: &State, u: u8) -> bool {
    in_style(s, u, "spirit")
}

/// Whether `u` stands at 0 HP on its last bar (every bar broken) and still on the map.
pub fn at_zero(s: &State, u: u8) -> bool {
    let x = s.u(u);
    x.at.is_some() && x.hp == 0 && x.broken >= x.bars
}

/// Whether 0 HP on its last bar leaves `u` in the fight (Bleeding, L2512; D-G-28): it is not
/// Taken Out while it stays on the map.
pub fn bleeding(s: &State, u: u8) -> bool {
    s.u(u).at.is_some() && s.style(u).is_some_and(|st| st.id == "bleeding")
}

/// Whether the Akimbo move after damage must be made (L2239: the book gives no choice). The
/// move is compulsory while there is a square to go to.
pub fn akimbo_must(s: &State, run: &Run) -> bool {
    run.quiet && run.compulsory && in_style(s, run.user, "akimbo")
}

/// `u` just took a Free Movement step (or moved one of its Copies by one): Spirit may move each
/// of its Copies 1 (L2436); a Dance Form may pull someone else in its range 1 (L1152).
pub fn after_step(cx: &mut Ctx, u: u8) {
    if !cx.s.u(u).active() {
        return;
    }
    if in_style(cx.s, u, "spirit") && !crate::copies::of(cx.s, u).is_empty() {
        cx.push(Frame::SpiritCopies { u, moved: Vec::new() });
    }
    let dance = cx.s.form(u).is_some_and(|f| f.id == "dance") || cx.s.form2(u).is_some_and(|f| f.id == "dance");
    let someone = (0..cx.s.units.len() as u8).any(|v| v != u && cx.s.u(v).active() && in_range(cx.s, u, v));
    if dance && someone {
        // Picking itself pulls nobody: the way to let the pull go.
        quiet(cx, u, vec![Effect::Pull { n: Num::N(1), target: Target::Anyone }]);
    }
}

/// The Copies of `u` a Spirit unit may still move 1 after a Free Movement step (those not moved
/// yet, `moved` holding where the moved ones went), as `copy:x,y>x,y` options.
pub fn spirit_moves(
    s: &State,
    u: u8,
    moved: &[fray_core::grid::Pos],
) -> Vec<(fray_core::grid::Pos, fray_core::grid::Pos)> {
    if !in_style(s, u, "spirit") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for c in crate::copies::of(s, u).into_iter().filter(|c| !moved.contains(c)) {
        for q in c.neighbours() {
            if s.empty(q) || crate::bosses::wall_open(s, q) {
                out.push((c, q));
            }
        }
    }
    out
}

/// Every Unique Action an Elder unit knows, from all of its Stances (L2672): each Stance's
/// Form's (both Forms of a Forbidden one) and Style's, once each.
pub fn elder_actions(s: &State, u: u8) -> Vec<(ActionKey, &crate::content::ActionDef)> {
    let x = s.u(u);
    let mut forms: Vec<usize> = x.stances.iter().flat_map(|st| std::iter::once(st.form).chain(st.form2)).collect();
    forms.sort_unstable();
    forms.dedup();
    let mut styles: Vec<usize> = x.stances.iter().filter_map(|st| st.style).collect();
    styles.sort_unstable();
    styles.dedup();
    let mut out = Vec::new();
    for f in forms {
        for (i, a) in s.content.forms[f].action.iter().enumerate() {
            if !a.reference_only {
                out.push((ActionKey::Form(f as u8, i as u8), a));
            }
        }
    }
    for sy in styles {
        for (i, a) in s.content.styles[sy].action.iter().enumerate() {
            if !a.reference_only {
                out.push((ActionKey::Style(sy as u8, i as u8), a));
            }
        }
    }
    out
}
