//! Initiative and the turn: the four phases (K-TURN-1..4), rounds (K-TURN-6), the Dungeon's
//! start-of-turn placements (K-DUN-2, K-DUN-7..10), Ongoing damage's final action
//! (K-ST-Ongoing), saving throws (K-SAVE) and the end of the match (K-END).

use crate::engine::events::Event;
use crate::engine::kit::{Ctx, Flow, Frame, Rolls};
use crate::engine::state::{State, UnitIdx, UnitKind};
use crate::rules::arena::Side;
pub use crate::rules::query::recharge_options;
pub use crate::rules::saves::{saving_roll, saving_throw};
use crate::rules::statuses::{Duration, Status, StatusKind};
use fray_core::decision::DecisionOption;
use fray_core::geometry::square_distance;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;

/// Rolls initiative for every athlete and sets the turn order (K-INIT-1, K-INIT-2): highest
/// first; on a tie non-player characters go before player characters, and tied player
/// characters keep their roster order (the order they "choose", fixed for the match).
pub fn roll_initiative(cx: &mut Ctx) -> Result<(), RuleError> {
    let athletes: Vec<UnitIdx> = cx.s.unit_indices().filter(|&u| cx.s.unit(u).kind == UnitKind::Athlete).collect();
    for &u in &athletes {
        let roll = cx.d6(None)?;
        cx.emit(Event::InitiativeRolled { unit: cx.s.who(u), roll });
    }
    set_order(cx, athletes);
    Ok(())
}

/// Orders units by their initiative (ties: NPCs first, then roster order) and starts round 1.
pub fn set_order(cx: &mut Ctx, mut units: Vec<UnitIdx>) {
    units.sort_by_key(|&u| (-cx.s.unit(u).initiative, cx.s.unit(u).pc, u));
    let order = units.iter().map(|&u| cx.s.who(u)).collect();
    cx.emit(Event::TurnOrder { order });
    cx.emit(Event::RoundStarted { round: 1 });
}

/// Starts the next turn, or ends the round.
pub fn next_turn(cx: &mut Ctx) -> Result<Flow, RuleError> {
    if cx.s.end_triggered && cx.s.options.match_end == crate::engine::options::MatchEnd::Immediate {
        finish(cx);
        return Ok(Flow::Continue);
    }
    if let Some(u) = cx.s.current() {
        cx.push(Frame::StartTurn { unit: u });
        if cx.s.turn_index == 0 {
            // Seer, Coin of Fortune.
            crate::engine::hooks::round(cx, crate::engine::hooks::Trigger::RoundBegins)?;
            crate::rules::team_traits::round_begins(cx)?; // Team Effort (L2751)
        }
        return Ok(Flow::Continue);
    }
    // Vortex Warps pull, then K-CRP-2's Creep phase (each pushes its frames and the round end
    // waits for them), then the Seer's backlash.
    if crate::engine::hooks::round(cx, crate::engine::hooks::Trigger::RoundEnds)? == crate::engine::hooks::Then::Wait {
        return Ok(Flow::Continue);
    }
    // End of round (K-TURN-6): Creeps act here (their issue); creatures without turns reset
    // their once-per-round zone record (K-ZONE-3).
    for u in cx.s.unit_indices().collect::<Vec<_>>() {
        if !cx.s.order.contains(&u) && cx.s.unit(u).zone_hits != 0 {
            cx.emit(Event::ZonesReset { unit: cx.s.who(u) });
        }
    }
    let limit = cx.s.options.round_limit;
    if cx.s.end_triggered || (limit > 0 && cx.s.round >= limit) || cx.s.order.is_empty() {
        finish(cx);
        return Ok(Flow::Continue);
    }
    cx.emit(Event::RoundStarted { round: cx.s.round + 1 });
    cx.push(Frame::NextTurn);
    Ok(Flow::Continue)
}

/// Ends the match: each team loses a point per three Strikes (K-END-3), then the winner.
pub fn finish(cx: &mut Ctx) {
    // K-MISS-4: unused Miss Tokens are gone at the end of the match.
    for u in cx.s.unit_indices().collect::<Vec<_>>() {
        if cx.s.unit(u).miss_tokens > 0 {
            cx.emit(Event::MissToken { unit: cx.s.who(u), total: 0 });
        }
    }
    for side in [Side::Red, Side::Blue] {
        let strikes: i32 = cx.s.units.iter().filter(|u| u.side == side).map(|u| u.strikes).sum();
        if strikes >= 3 {
            cx.emit(Event::StrikePenalty { side, strikes, penalty: strikes / 3 });
        }
    }
    let [red, blue] = cx.s.score;
    let winner = match red.cmp(&blue) {
        std::cmp::Ordering::Greater => Some(Side::Red),
        std::cmp::Ordering::Less => Some(Side::Blue),
        std::cmp::Ordering::Equal => None,
    };
    let summary = match winner {
        Some(w) => format!("{} wins, red {red} to blue {blue}, after {} rounds", w.name(), cx.s.round),
        None => format!("a draw, red {red} to blue {blue}, after {} rounds", cx.s.round),
    };
    cx.emit(Event::MatchOver { summary, winner, red, blue });
}

/// Start Phase (K-TURN-1).
pub fn start_turn(cx: &mut Ctx, unit: UnitIdx) -> Result<Flow, RuleError> {
    let turn = cx.s.unit(unit).turns_started + 1;
    cx.emit(Event::TurnStarted { unit: cx.s.who(unit), turn });
    crate::rules::map_rules::turn_starts(cx, unit); // the Throne (K-SCO-10)
    end_statuses(
        cx,
        |d| matches!(d, Duration::StartOfTurn { unit: w, turn: t } if *w == unit && *t <= turn),
        "its turn started",
    );
    crate::rules::modifiers::expire(
        cx,
        |d| matches!(d, Duration::StartOfTurn { unit: w, turn: t } if *w == unit && *t <= turn),
        "its turn started",
    );
    crate::rules::curses::expire(
        cx,
        |d| matches!(d, Duration::StartOfTurn { unit: w, turn: t } if *w == unit && *t <= turn),
        "its turn started",
    );
    if cx.s.unit(unit).forfeit_move {
        cx.emit(Event::MoveForfeit { unit: cx.s.who(unit), armed: false }); // Borrowed Time
    }
    (crate::engine::hooks::triggered(cx.s).start_of_turn)(cx, unit);
    cx.push(crate::rules::summons::turn_frame(cx.s, unit).unwrap_or(Frame::Act { unit }));
    cx.push(Frame::StartEffects { unit });
    // The Tinker's free trap slide (before its traps act), Draught of Bonded Futures.
    crate::engine::hooks::turn_point(cx, crate::engine::hooks::Trigger::TurnStarted, unit);
    let u = cx.s.unit(unit);
    // A removed creature that hit an exit's button comes out at a turn it starts back on the map.
    if (u.taken_out || u.button.is_some()) && !crate::rules::query::is_removed(cx.s, unit) {
        if u.taken_out && u.button.is_none() {
            cx.push(Frame::Respawn { unit });
        } else {
            cx.push(Frame::Exit { unit });
        }
    }
    Ok(Flow::Continue)
}

/// Ends every status whose duration matches, on every unit.
pub fn end_statuses(cx: &mut Ctx, mut f: impl FnMut(&Duration) -> bool, why: &str) {
    let mut ended = Vec::new();
    for u in cx.s.unit_indices() {
        for st in &cx.s.unit(u).statuses {
            if f(&st.duration) {
                ended.push((u, *st));
            }
        }
    }
    for (u, st) in ended {
        cx.emit(Event::StatusEnded { unit: cx.s.who(u), status: st, why: why.into() });
        if st.kind == StatusKind::Flying && !cx.s.has(u, StatusKind::Flying) && cx.s.unit(u).on_map() {
            // K-ST-Flying: coming down onto an occupied square, it takes the nearest free one.
            crate::rules::movement::settle_on_legal_square(cx, u, "comes down beside the creature below");
        }
    }
}

/// Regenerate, Ongoing damage and damaging terrain at the start of a turn (K-TURN-1).
pub fn start_effects(cx: &mut Ctx, unit: UnitIdx) -> Result<Flow, RuleError> {
    crate::engine::hooks::start_phase(cx, unit)?; // summons, the Tamer's creatures
    if !cx.s.unit(unit).on_map() {
        return Ok(Flow::Continue);
    }
    crate::rules::curses::turn_started(cx, unit)?; // Foreseen Attack
    crate::rules::curses::maker_turn_started(cx, unit)?; // Favored Target
    if !cx.s.unit(unit).on_map() {
        return Ok(Flow::Continue);
    }
    // Whirling ready again, Motivator (above maximum HP), Line-of-Sight Curse.
    crate::engine::hooks::turn_point(cx, crate::engine::hooks::Trigger::StartEffects, unit);
    // K-ST-Regenerate: only while at 1 HP or more; Empathic Wave reaches allies near the Diviner.
    let regen = cx.s.amount(unit, StatusKind::Regenerate)
        + crate::rules::query::regenerate(cx.s, unit)
        + crate::rules::query::wave_regenerate(cx.s, unit);
    if regen > 0 && cx.s.unit(unit).hp >= 1 {
        crate::rules::damage::heal(cx, unit, regen, "Regenerate");
    }
    // K-ST-Ongoing, K-CTYPE-8: Ongoing damage and the stings of the Mobs it starts in; a lethal
    // dose allows one final action first.
    let (ongoing, _) = ongoing_damage(cx.s, unit);
    let stings = crate::rules::creeps::swarm::mobs_over(cx.s, unit);
    let dose = ongoing + crate::rules::creeps::swarm::start_dose(cx.s, unit);
    if dose > 0 {
        let u = cx.s.unit(unit);
        // Traps, walls and automata take no final action (they have no actions, L1369).
        if crate::rules::damage::would_take_out(cx.s, unit, dose) && u.hp > 0 && crate::rules::query::takes_actions(u) {
            cx.push(Frame::FinalAction { unit, acted: false, stings, blow: None });
            return Ok(Flow::Continue);
        }
        take_ongoing(cx, unit);
        crate::rules::creeps::swarm::sting(cx, unit, &stings, "starts its turn in");
    }
    if cx.s.unit(unit).on_map() {
        crate::rules::zones::start_turn_in_terrain(cx, unit)?;
    }
    if cx.s.unit(unit).on_map() {
        crate::rules::control::roll(cx, unit)?;
    }
    Ok(Flow::Continue)
}

/// Total Ongoing damage on `unit` (same-source instances do not stack) and who gets the
/// credit if it takes the unit out: the source of the largest instance (rulings K-SCO-3).
pub fn ongoing_damage(s: &State, unit: UnitIdx) -> (i32, Option<UnitIdx>) {
    let total = s.amount(unit, StatusKind::Ongoing);
    let credit = s
        .unit(unit)
        .statuses
        .iter()
        .filter(|st| st.kind == StatusKind::Ongoing)
        .max_by_key(|st| st.amount)
        .and_then(|st| st.source);
    (total, credit)
}

/// Deals `unit` its Ongoing damage now.
pub fn take_ongoing(cx: &mut Ctx, unit: UnitIdx) {
    let (amount, credit) = ongoing_damage(cx.s, unit);
    if amount > 0 {
        crate::rules::damage::deal(cx, unit, amount, credit, "ongoing damage", None);
    }
}

/// The final action before lethal damage at the start of a turn (K-ST-Ongoing, K-CTYPE-8):
/// once it is taken (or passed), the damage lands unless the action removed the status, took
/// the Mob out, or healed enough. A Mob's sting lands wherever the unit then stands (a step out
/// of the Mob does not save it: it was already down, L578).
pub fn final_action(
    cx: &mut Ctx,
    unit: UnitIdx,
    acted: bool,
    stings: Vec<UnitIdx>,
    blow: Option<crate::engine::frames::Blow>,
) -> Result<Flow, RuleError> {
    if !acted {
        cx.push(Frame::FinalAction { unit, acted, stings, blow });
        return Ok(Flow::Wait);
    }
    if let Some(b) = blow {
        crate::rules::creeps::love_beast::last_turn_over(cx, unit, b);
        return Ok(Flow::Continue);
    }
    if cx.s.unit(unit).on_map() {
        take_ongoing(cx, unit);
        crate::rules::creeps::swarm::sting(cx, unit, &stings, "starts its turn in");
        if cx.s.unit(unit).on_map() {
            crate::rules::zones::start_turn_in_terrain(cx, unit)?;
        }
    }
    Ok(Flow::Continue)
}

/// The Action Phase: the turn ends by itself once the unit is off the map or a staff or sword
/// attack ended it (K-ACT-5); otherwise wait for its next action.
pub fn act_step(cx: &mut Ctx, unit: UnitIdx) -> Result<Flow, RuleError> {
    (crate::engine::hooks::taming(cx.s).after_action)(cx, unit); // a creature's delayed Ongoing damage (L1669)
    let u = cx.s.unit(unit);
    if u.on_map() && u.turn_over && (crate::engine::hooks::role_actions(cx.s).hide_offer)(cx.s, unit).is_some() {
        // Hide may still end a turn cut short (L2059).
        cx.push(Frame::Role(crate::engine::frames::roles::RoleFrame::HideAtEnd { unit }));
        return Ok(Flow::Continue);
    }
    // A removed creature's turn goes on while it still has its move (removal.rs).
    let removed = crate::rules::query::is_removed(cx.s, unit);
    if (!u.on_map() && !removed) || u.turn_over || crate::engine::hooks::removed_turn_done(cx.s, unit) {
        cx.push(Frame::EndTurn { unit, fail: Vec::new() });
        return Ok(Flow::Continue);
    }
    cx.push(Frame::Act { unit });
    Ok(Flow::Wait)
}

/// Saving Throw Phase (K-TURN-3, K-TURN-5, K-SAVE-2) and End Phase (K-TURN-4).
pub fn end_turn(cx: &mut Ctx, unit: UnitIdx, fail: Vec<StatusKind>) -> Result<Flow, RuleError> {
    // K-ST-Phasing: a turn never ends inside a wall; should one be about to (its turn cut short
    // in there), the creature is put on the nearest square it may occupy.
    // A Tamer's creature moves on the Tamer's turn, so it is pushed out too.
    for w in std::iter::once(unit).chain(crate::rules::beasts::creatures(cx.s, unit)).collect::<Vec<_>>() {
        if crate::rules::movement::inside_wall(cx.s, w) {
            let p = cx.s.unit(w).pos.unwrap();
            if let Some(q) = crate::rules::movement::nearest_free(cx.s, w, p) {
                cx.emit(Event::Placed {
                    unit: cx.s.who(w),
                    at: q,
                    why: "is pushed out of the wall as its turn ends".into(),
                });
            }
        }
    }
    let mut saves: Vec<Status> = Vec::new();
    if cx.s.unit(unit).on_map() || crate::rules::query::is_removed(cx.s, unit) {
        // Modifiers that end on a save (You're Mine) first: Distracted stays last (K-TURN-5).
        modifier_saves(cx, unit)?;
        crate::rules::curses::saves(cx, unit)?; // Revealed Pain, Linked Doom
        (crate::engine::hooks::charms(cx.s).lasting_saves)(cx, unit, &fail)?; // Lasting: one save per charm
        saves =
            cx.s.unit(unit)
                .statuses
                .iter()
                .filter(|st| matches!(st.duration, Duration::SaveEnds | Duration::SaveSustains))
                .filter(|st| !(crate::engine::hooks::charms(cx.s).lasting_status)(cx.s, st))
                .copied()
                .collect();
        crate::engine::hooks::saves_due(cx, unit, &mut saves); // Jinxer
        // K-TURN-5: Distracted is saved against last.
        // Dazed carries Distracted with it, so it waits too.
        saves.sort_by_key(|st| matches!(st.kind, StatusKind::Distracted | StatusKind::Dazed));
    }
    save_phase(cx, unit, saves, fail)
}

/// The Saving Throw Phase from the save against `left[0]` on, then the End Phase. A failed save
/// that Keep Walking could answer pauses it: the answer settles that save, then it resumes.
pub fn save_phase(
    cx: &mut Ctx,
    unit: UnitIdx,
    mut left: Vec<Status>,
    fail: Vec<StatusKind>,
) -> Result<Flow, RuleError> {
    while !left.is_empty() {
        let st = left.remove(0);
        if !cx.s.unit(unit).statuses.contains(&st) {
            continue;
        }
        let chosen = fail.contains(&st.kind);
        let success = if chosen {
            cx.emit(Event::Note {
                text: format!("{} chooses to fail the save against {}", cx.s.unit(unit).id, st.kind),
            });
            false
        } else {
            saving_throw(cx, unit, st.kind.name())?
        };
        if !success && !chosen && (crate::engine::hooks::triggered(cx.s).save_failed)(cx, unit, st, &left, &fail) {
            return Ok(Flow::Continue);
        }
        settle_save(cx, unit, st, success);
    }
    crate::rules::creeps::swarm::turn_ends(cx, unit); // K-CTYPE-8: ending a turn in a Mob
    // Generosity Tonic, Boost Square, Bruiser's Ward, K-CAI-1 (a turn ending next to Creeps).
    crate::engine::hooks::turn_point(cx, crate::engine::hooks::Trigger::TurnEnding, unit);
    let turn = cx.s.unit(unit).turns_started;
    let landing = (crate::engine::hooks::charms(cx.s).forced_landing)(cx.s, unit, turn); // Forced Flight
    end_statuses(
        cx,
        |d| matches!(d, Duration::EndOfTurn { unit: w, turn: t } if *w == unit && *t <= turn),
        "end of turn",
    );
    crate::rules::curses::maker_turn_ends(cx, unit)?; // Explosive Attachment
    // Talisman of Distraction, zones, summons, Seeking Hex, modifiers and curses that last to
    // the end of the turn, Ugnatio's Preservation Charm, triggered powers waiting.
    crate::engine::hooks::turn_point(cx, crate::engine::hooks::Trigger::EndOfTurn, unit);
    if cx.s.unit(unit).zone_hits != 0 {
        cx.emit(Event::ZonesReset { unit: cx.s.who(unit) });
    }
    crate::rules::map_rules::turn_ends(cx, unit); // the Throne (K-SCO-10)
    cx.emit(Event::TurnEnded { unit: cx.s.who(unit) });
    cx.push(Frame::NextTurn);
    if let Some(by) = landing {
        (crate::engine::hooks::charms(cx.s).landing_attack)(cx, unit, by);
    }
    // Special Ward, Floor Portal and Bend Space, Removal from Existence, the Tamer's creatures,
    // triggered powers.
    crate::engine::hooks::turn_point(cx, crate::engine::hooks::Trigger::TurnEnded, unit);
    Ok(Flow::Continue)
}

/// What a save against a status does: a success ends a "save ends" status, a failure a "save
/// sustains" one (K-TURN-3).
pub fn settle_save(cx: &mut Ctx, unit: UnitIdx, st: Status, success: bool) {
    if success && (crate::engine::hooks::taming(cx.s).nettle_save)(cx, unit, st) {
        return; // a Nettlekin's Ongoing damage only eases (L1813)
    }
    let ends = match st.duration {
        Duration::SaveSustains => !success,
        _ => success,
    };
    if success {
        crate::rules::creeps::swarm::saved(cx, unit, st); // Return to the Swarm
    }
    if ends && cx.s.unit(unit).statuses.contains(&st) {
        cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "saved".into() });
    } else if !success && cx.s.unit(unit).statuses.contains(&st) {
        (crate::engine::hooks::brews(cx.s).failed_save)(cx, unit, st); // Corrosive Potion
    }
}

fn free_squares_near(s: &State, unit: UnitIdx, targets: &[Pos], inside_dungeon: Option<bool>) -> Vec<Pos> {
    let size = s.unit(unit).size;
    let footing = crate::rules::movement::Footing::of(s, unit); // gathered once for every square
    let ok = |p: Pos| {
        footing.can_stand(p, size)
            && inside_dungeon.is_none_or(|inside| s.arena.footprint_in_dungeon(p, size) == inside)
    };
    let free: Vec<Pos> = targets.iter().copied().filter(|&p| ok(p)).collect();
    if !free.is_empty() {
        return free;
    }
    // None free: the nearest unoccupied squares (K-DUN-2, K-DUN-7).
    let mut best = i32::MAX;
    let mut out = Vec::new();
    for p in s.arena.terrain.squares() {
        if !ok(p) {
            continue;
        }
        let d = targets.iter().map(|&t| square_distance(p, t)).min().unwrap_or(i32::MAX);
        if d < best {
            best = d;
            out.clear();
        }
        if d == best {
            out.push(p);
        }
    }
    out
}

fn spawn_squares(s: &State, unit: UnitIdx) -> Vec<Pos> {
    let team = s.unit(unit).side.team().unwrap_or(0);
    free_squares_near(s, unit, &s.arena.spawns[team], None)
}

fn outside_exit(s: &State, unit: UnitIdx, exit: Pos) -> Vec<Pos> {
    let ring: Vec<Pos> = exit.neighbours().into_iter().filter(|&p| !s.arena.in_dungeon(p)).collect();
    free_squares_near(s, unit, &ring, Some(false))
}

/// Spawn squares `unit` could be put on now (free ones, or the nearest free Dungeon squares).
pub fn spawn_options(s: &State, unit: UnitIdx) -> Vec<DecisionOption> {
    spawn_squares(s, unit).into_iter().map(|p| DecisionOption::square(p, format!("to {p}"))).collect()
}

/// Banishing (K-DUN-13): a teleport to the chosen spawn square in the creature's current
/// condition — it keeps its HP, statuses, spent powers and orbs (see rulings); Grabs on it
/// and by it end, as for any teleport (K-FM-5).
pub fn answer_banish(cx: &mut Ctx, unit: UnitIdx, option: &str) -> Result<(), RuleError> {
    let to = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
    let Some(from) = cx.s.unit(unit).pos else { return Ok(()) };
    cx.emit(Event::Moved { unit: cx.s.who(unit), from, to, how: crate::engine::events::How::Teleport });
    for st in cx.s.unit(unit).statuses.clone().into_iter().filter(|s| s.kind == StatusKind::Grabbed) {
        cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why: "banished out of the Grab".into() });
    }
    crate::rules::damage::release_maintained(cx, unit, "its holder was banished");
    Ok(())
}

/// Spawn-square options (K-DUN-2).
pub fn respawn_options(s: &State, unit: UnitIdx) -> Vec<DecisionOption> {
    spawn_squares(s, unit).into_iter().map(|p| DecisionOption::square(p, format!("spawn at {p}"))).collect()
}

/// Where a unit that hit the button may start (K-DUN-7..10).
pub fn exit_options(s: &State, unit: UnitIdx) -> Vec<DecisionOption> {
    let u = s.unit(unit);
    let Some(exit) = u.button else {
        return Vec::new();
    };
    let holds_dungeon_orb = s.held_orbs(unit).any(|o| s.orbs[o as usize].dungeon_orb);
    let anywhere = (u.button_with_orb && holds_dungeon_orb) || crate::rules::team_traits::out_anywhere(s, unit);
    let mut out: Vec<DecisionOption> = if anywhere && u.on_map() {
        // K-DUN-9 (and Get Out of Jail Free from level 3, L3793): anywhere on the map.
        s.arena
            .terrain
            .squares()
            .filter(|&p| !s.arena.in_dungeon(p) && crate::rules::movement::can_stand(s, unit, p, u.size))
            .map(|p| DecisionOption::square(p, format!("start at {p}")))
            .collect()
    } else {
        outside_exit(s, unit, exit).into_iter().map(|p| DecisionOption::square(p, format!("come out at {p}"))).collect()
    };
    if u.taken_out {
        // K-DUN-10: or start in the Dungeon.
        out.extend(
            spawn_squares(s, unit)
                .into_iter()
                .map(|p| DecisionOption::square(p, format!("spawn in the Dungeon at {p}"))),
        );
    } else {
        out.push(DecisionOption::new("stay", "cancel the button and stay in the Dungeon (K-DUN-8)"));
    }
    out
}

/// Places a respawning unit.
pub fn answer_respawn(cx: &mut Ctx, unit: UnitIdx, option: &str) -> Result<(), RuleError> {
    let p = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
    cx.emit(Event::Placed { unit: cx.s.who(unit), at: p, why: "starts the turn in the Dungeon".into() });
    (crate::engine::hooks::features(cx.s).after_respawn)(cx, unit); // Shivering Sword: spells in force again
    Ok(())
}

/// Places a unit leaving the Dungeon, or keeps it in.
pub fn answer_exit(cx: &mut Ctx, unit: UnitIdx, option: &str) -> Result<(), RuleError> {
    cx.emit(Event::ButtonCleared { unit: cx.s.who(unit) });
    if option == "stay" {
        return Ok(());
    }
    let p = Pos::parse(option).ok_or_else(|| RuleError::malformed("choose a square as x,y"))?;
    let from = cx.s.unit(unit).pos;
    let inside = cx.s.arena.footprint_in_dungeon(p, cx.s.unit(unit).size);
    let why = if inside { "starts the turn in the Dungeon" } else { "comes out of the Dungeon" };
    if let Some(from) = from
        && !inside
    {
        crate::rules::creeps::squid::leaving_dungeon(cx, unit, from); // Item Grabbing
    }
    cx.emit(Event::Placed { unit: cx.s.who(unit), at: p, why: why.into() });
    // K-DUN-11: leaving while Grabbed by another athlete brings the grabber along.
    if from.is_some() {
        let grabbers: Vec<UnitIdx> =
            cx.s.unit(unit)
                .statuses
                .iter()
                .filter(|st| st.kind == StatusKind::Grabbed)
                .filter_map(|st| st.source)
                .collect();
        for g in grabbers {
            if cx.s.unit(g).kind == UnitKind::Athlete
                && cx.s.unit(g).on_map()
                && let Some(dest) = crate::rules::movement::nearest_free(cx.s, g, p)
            {
                cx.emit(Event::Placed {
                    unit: cx.s.who(g),
                    at: dest,
                    why: "comes out of the Dungeon still holding its Grab".into(),
                });
            } else if !inside && let Some(st) = cx.s.status_from(unit, StatusKind::Grabbed, g) {
                // Any other grabber (a Creep) stays in the Dungeon and its Grab is left behind.
                let why = format!("out of the Dungeon, away from {}", cx.s.unit(g).id);
                cx.emit(Event::StatusEnded { unit: cx.s.who(unit), status: st, why });
            }
        }
    }
    Ok(())
}

/// Recharges the chosen Encounter power.
pub fn answer_recharge(cx: &mut Ctx, unit: UnitIdx, option: &str) -> Result<(), RuleError> {
    let p = cx.s.powers.find(option).ok_or_else(|| RuleError::malformed(format!("no power {option:?}")))?;
    cx.emit(Event::EncounterRecharged { unit: cx.s.who(unit), power: p, name: cx.s.powers.get(p).name.clone() });
    Ok(())
}

/// Saves in `unit`'s Saving Throw Phase against modifiers that end on a save (You're Mine).
pub fn modifier_saves(cx: &mut Ctx, unit: UnitIdx) -> Result<(), fray_core::ruleset::RuleError> {
    let mut i = 0;
    while i < cx.s.modifiers.len() {
        let m = cx.s.modifiers[i].clone();
        if m.duration == Duration::SaveEnds && m.attackers == crate::engine::records::modifiers::Attackers::Unit(unit) {
            let name = cx.s.powers.get(m.power).name.clone();
            let saved = crate::rules::saves::saving_throw(cx, unit, &name)?;
            // The save may have used up a modifier before this one (Restore's Advantage).
            let j = cx.s.modifiers.iter().position(|x| *x == m).unwrap_or(i);
            if saved {
                cx.emit(Event::ModifierEnded { index: j, why: "saved".into() });
                i = j;
                continue;
            }
            i = j;
        }
        i += 1;
    }
    Ok(())
}
