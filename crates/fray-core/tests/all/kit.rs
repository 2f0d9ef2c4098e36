//! The engine kit: the frame-stack loop and its context on a toy machine, units named in
//! events, typed durations, forced-movement steps, the turn meter and dice pools.

use fray_core::decision::{Decision, DecisionOption};
use fray_core::dice::{Pool, ScriptedDice};
use fray_core::engine::forced::{next_steps, straight_on};
use fray_core::engine::{self, Apply, Ctx, Duration, Flow, Forced, Lasts, Machine, Resolve, Stack, Who, Whose};
use fray_core::game::NullSink;
use fray_core::grid::Pos;
use fray_core::ruleset::RuleError;
use fray_core::turns::Meter;

// --- a toy machine: count up, asking after every third step whether to go on -------------

#[derive(Clone, Debug, Default)]
struct Counter {
    total: u32,
    stack: Vec<Step>,
    over: bool,
    steps_seen: u32,
    idled: u32,
}

#[derive(Clone, Debug, PartialEq)]
enum Ev {
    Added(u32),
    Stopped,
    Idle,
}

#[derive(Clone, Debug, PartialEq)]
enum Step {
    /// Adds 1, `left` more times.
    Count { left: u32 },
    /// Asks whether to go on.
    Ask,
    /// Asks nothing and does nothing.
    Quiet,
}

impl Apply<Ev> for Counter {
    fn apply(&mut self, e: &Ev) {
        match e {
            Ev::Added(n) => self.total += n,
            Ev::Stopped => self.over = true,
            Ev::Idle => self.idled += 1,
        }
    }
}

impl Stack for Counter {
    type Frame = Step;
    fn frames(&self) -> &[Step] {
        &self.stack
    }
    fn frames_mut(&mut self) -> &mut Vec<Step> {
        &mut self.stack
    }
}

impl Machine for Counter {
    type Event = Ev;
    fn over(&self) -> bool {
        self.over
    }
    fn idle(&self) -> Step {
        Step::Count { left: 3 }
    }
    fn before_step(cx: &mut Ctx<'_, Self, Ev>) -> Result<(), RuleError> {
        if cx.s.total >= 10 && !cx.s.over {
            cx.emit(Ev::Stopped); // the end check runs before every step
        }
        Ok(())
    }
    fn after_step(cx: &mut Ctx<'_, Self, Ev>) -> Result<(), RuleError> {
        cx.s.steps_seen += 1;
        Ok(())
    }
}

impl Resolve<Counter> for Step {
    fn step(self, cx: &mut Ctx<'_, Counter, Ev>) -> Result<Flow, RuleError> {
        match self {
            Step::Count { left: 0 } => {
                cx.push(Step::Ask);
                Ok(Flow::Continue)
            }
            Step::Count { left } => {
                cx.emit(Ev::Added(1));
                cx.push(Step::Count { left: left - 1 });
                Ok(Flow::Continue)
            }
            waiting => Ok(cx.wait(waiting)),
        }
    }
    fn question(&self, s: &Counter) -> Option<Decision> {
        match self {
            Step::Ask => Some(Decision {
                seat: "counter".into(),
                unit: None,
                kind: "more".into(),
                prompt: format!("at {}: go on?", s.total),
                options: vec![DecisionOption::new("more", "go on"), DecisionOption::new("stop", "stop")],
            }),
            _ => None,
        }
    }
    fn answer(self, cx: &mut Ctx<'_, Counter, Ev>, option: &str) -> Result<(), RuleError> {
        match (self, option) {
            (Step::Ask, "more") => {
                cx.emit(Ev::Idle);
                Ok(())
            }
            (Step::Ask, "stop") => {
                cx.emit(Ev::Stopped);
                Ok(())
            }
            (other, _) => {
                cx.push(other);
                Err(RuleError::malformed("that cannot be answered"))
            }
        }
    }
}

#[test]
fn the_loop_runs_to_a_question_and_an_answer_resumes_it() {
    let mut s = Counter::default();
    let mut dice = ScriptedDice::new([], None);
    let mut log = Vec::new();
    let mut cx = Ctx::new(&mut s, &mut dice, &mut log);
    engine::run(&mut cx).unwrap();
    assert_eq!(s.total, 3, "the idle frame counted three times");
    assert_eq!(s.stack, vec![Step::Ask]);
    assert_eq!(s.steps_seen, 5, "the hook ran after every step, the waiting one included");
    let d = engine::decision(&s).expect("asked");
    assert_eq!(d.prompt, "at 3: go on?");
    assert_eq!(log, vec![Ev::Added(1), Ev::Added(1), Ev::Added(1)]);

    let mut cx = Ctx::new(&mut s, &mut dice, &mut log);
    engine::answer(&mut cx, "more").unwrap();
    assert_eq!(s.total, 6);
    assert_eq!(s.idled, 1, "the answer's event was applied");
    assert_eq!(log.len(), 7, "and journaled");
}

#[test]
fn the_end_check_clears_the_stack_and_nothing_is_asked() {
    let mut s = Counter::default();
    let mut dice = ScriptedDice::new([], None);
    let mut sink = NullSink;
    for _ in 0..4 {
        let mut cx = Ctx::new(&mut s, &mut dice, &mut sink);
        if engine::decision(cx.s).is_some() {
            engine::answer(&mut cx, "more").unwrap();
        } else {
            engine::run(&mut cx).unwrap();
        }
    }
    assert!(s.over, "reaching 10 ends it before the next step");
    assert_eq!(s.total, 10);
    assert!(s.stack.is_empty());
    assert_eq!(engine::decision(&s), None);
}

#[test]
fn an_answer_to_a_frame_that_asks_nothing_is_refused_and_the_frame_stays() {
    let mut s = Counter { stack: vec![Step::Quiet], ..Counter::default() };
    let mut dice = ScriptedDice::new([], None);
    let mut log = Vec::new();
    let mut cx = Ctx::new(&mut s, &mut dice, &mut log);
    assert!(engine::answer(&mut cx, "more").is_err());
    assert_eq!(s.stack, vec![Step::Quiet]);
    assert!(log.is_empty());
}

#[test]
fn a_null_sink_keeps_nothing_but_events_still_apply() {
    let mut s = Counter::default();
    let mut dice = ScriptedDice::new([4], None);
    let mut sink = NullSink;
    let mut cx = Ctx::new(&mut s, &mut dice, &mut sink);
    assert!(!cx.keeps());
    assert_eq!(cx.roll(6), Ok(4));
    cx.emit(Ev::Added(5));
    assert_eq!(s.total, 5);
}

// --- Who ------------------------------------------------------------------------------------

#[test]
fn who_reads_and_serializes_as_its_id() {
    let w: Who = Who::new(3, "ogre-1");
    assert_eq!(w.idx, 3);
    assert_eq!(w.to_string(), "ogre-1");
    assert_eq!(serde_json::to_string(&w).unwrap(), "\"ogre-1\"");
    let wide: Who<u16> = Who::new(300, "hero");
    assert_eq!(wide.idx, 300);
}

// --- durations ------------------------------------------------------------------------------

#[test]
fn durations_are_parsed_once_in_every_spelling() {
    assert_eq!(Lasts::parse("eot"), Some(Lasts::EndOfNextTurn(Whose::Target)));
    assert_eq!(Lasts::parse("End of their next turn"), Some(Lasts::EndOfNextTurn(Whose::Target)));
    assert_eq!(Lasts::parse("end_of_your_next_turn"), Some(Lasts::EndOfNextTurn(Whose::User)));
    assert_eq!(Lasts::parse("start-of-your-next-turn"), Some(Lasts::StartOfNextTurn(Whose::User)));
    assert_eq!(Lasts::parse("save ends"), Some(Lasts::SaveEnds));
    assert_eq!(Lasts::parse("encounter"), Some(Lasts::EndOfEncounter));
    assert_eq!(Lasts::parse("until removed"), Some(Lasts::Indefinite));
    assert_eq!(Lasts::parse("next tuesday"), None);
    for l in Lasts::ALL {
        assert_eq!(Lasts::parse(l.id()), Some(l), "{l} reads back");
    }
    #[derive(serde::Deserialize)]
    struct Effect {
        until: Lasts,
    }
    let e: Effect = toml::from_str("until = \"save-ends\"").unwrap();
    assert_eq!(e.until, Lasts::SaveEnds);
    let err = toml::from_str::<Effect>("until = \"soon\"").err().unwrap().to_string();
    assert!(err.contains("unknown duration \"soon\""), "{err}");
}

#[test]
fn a_written_duration_is_laid_on_the_target_or_the_user() {
    let next = |u: u8| u32::from(u) * 10 + 1;
    let d: Duration = Lasts::EndOfNextTurn(Whose::Target).lay(2, 5, next, 4);
    assert_eq!(d, Duration::EndOfTurn { unit: 2, turn: 21 });
    let d: Duration = Lasts::StartOfNextTurn(Whose::User).lay(2, 5, next, 4);
    assert_eq!(d, Duration::StartOfTurn { unit: 5, turn: 51 });
    let d: Duration = Lasts::EndOfRound.lay(2, 5, next, 4);
    assert_eq!(d, Duration::EndOfRound { round: 4 });
    assert!(d.ends_at_end_of_round(4) && !d.ends_at_end_of_round(3));
    let d: Duration = Duration::EndOfTurn { unit: 2, turn: 3 };
    assert!(d.ends_at_end_of_turn(2, 3) && d.ends_at_end_of_turn(2, 4));
    assert!(!d.ends_at_end_of_turn(2, 2) && !d.ends_at_end_of_turn(1, 3));
    assert!(!d.ends_at_start_of_turn(2, 3));
    assert_eq!(d.unit(), Some(2));
    assert!(Duration::<u8>::SaveEnds.is_saved_against() && !Duration::<u8>::EscapeEnds.is_saved_against());
}

#[test]
fn durations_serialize_tagged_and_a_system_adds_its_own() {
    let d: Duration = Duration::EndOfTurn { unit: 1, turn: 2 };
    assert_eq!(serde_json::to_string(&d).unwrap(), r#"{"kind":"end-of-turn","unit":1,"turn":2}"#);
    let d: Duration = Duration::SaveEnds;
    assert_eq!(serde_json::to_string(&d).unwrap(), r#"{"kind":"save-ends"}"#);

    #[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    #[serde(tag = "kind", rename_all = "kebab-case")]
    enum Own {
        WhileChanting { chanter: u8 },
    }
    let d: Duration<u8, Own> = Duration::Other(Own::WhileChanting { chanter: 4 });
    let json = serde_json::to_string(&d).unwrap();
    assert_eq!(json, r#"{"kind":"while-chanting","chanter":4}"#);
    assert_eq!(serde_json::from_str::<Duration<u8, Own>>(&json).unwrap(), d);
    let back: Duration<u8, Own> = serde_json::from_str(r#"{"kind":"end-of-encounter"}"#).unwrap();
    assert_eq!(back, Duration::EndOfEncounter);
}

// --- forced movement ------------------------------------------------------------------------

#[test]
fn a_push_goes_farther_a_pull_closer_a_slide_anywhere() {
    let origin = Pos::new(0, 0);
    let from = Pos::new(2, 0);
    let squares = |kind| -> Vec<Pos> {
        let mut v: Vec<Pos> = next_steps(kind, from, 1, origin, 1, &[], false).collect();
        v.sort_by_key(|p| (p.y, p.x));
        v
    };
    assert_eq!(squares(Forced::Push), vec![Pos::new(3, -1), Pos::new(3, 0), Pos::new(3, 1)]);
    assert_eq!(squares(Forced::Pull), vec![Pos::new(1, -1), Pos::new(1, 0), Pos::new(1, 1)]);
    assert_eq!(squares(Forced::Slide).len(), 8);
    // Footprints count: a 2x2 origin is 1 square from (2, 0).
    assert!(Forced::Push.step_ok(from, Pos::new(3, 0), 1, origin, 2));
    assert!(!Forced::Push.step_ok(from, Pos::new(2, 1), 1, origin, 2));
    assert_eq!((Forced::Slide.name(), Forced::Pull.past()), ("slide", "pulled"));
    assert_eq!(Forced::parse("Push"), Some(Forced::Push));
}

#[test]
fn a_straight_line_may_turn_but_never_step_back() {
    assert!(straight_on(&[], (-1, 1)));
    assert!(straight_on(&[(1, 0)], (1, 1)), "an L is straight");
    assert!(straight_on(&[(1, 0), (0, 1)], (1, 1)));
    assert!(!straight_on(&[(1, 1)], (1, -1)), "a zigzag is not");
    assert!(!straight_on(&[(1, 0)], (-1, 0)));
    // Pushed right once, a straight push may not go back up-left even where it is farther.
    let origin = Pos::new(5, 5);
    let from = Pos::new(5, 3);
    let bent: Vec<Pos> = next_steps(Forced::Push, from, 1, origin, 1, &[(1, -1)], true).collect();
    assert!(bent.iter().all(|q| q.x >= from.x && q.y <= from.y), "{bent:?}");
    let free: Vec<Pos> = next_steps(Forced::Push, from, 1, origin, 1, &[(1, -1)], false).collect();
    assert!(free.contains(&Pos::new(4, 2)));
    // A slide never has to keep a line.
    assert_eq!(next_steps(Forced::Slide, from, 1, origin, 1, &[(1, -1)], true).count(), 8);
}

// --- the turn meter -------------------------------------------------------------------------

#[test]
fn the_meter_has_a_slot_per_bar_and_alternates_sides() {
    // Two heroes of one bar each; a boss of two bars and a minion of one on the other side.
    let mut m = Meter::new(2);
    let (a, b) = (m.add(0, 1), m.add(0, 1));
    let (boss, minion) = (m.add(1, 2), m.add(1, 1));
    m.add_open(0, 1); // a third hero bar shared out evenly: any hero may take it
    assert_eq!(m.slots(), 6);
    let all = |_| true;
    let mut order = Vec::new();
    let picks = [a, boss, a, minion, b, boss];
    for &u in &picks {
        let side = m.side_to_pick(all).expect("a slot is left");
        assert_eq!(side, m.side[u], "sides alternate, heroes first");
        assert!(m.candidates(side, all).any(|c| c == u));
        assert!(m.fill(u));
        order.push(u);
    }
    assert_eq!(m.side_to_pick(all), None, "every slot is filled: the round is over");
    assert_eq!(m.filled, 6);
    assert!(!m.fill(minion), "no turn left: refused");
    assert_eq!(m.filled, 6, "and nothing changed");
    m.new_round();
    assert_eq!(m.side_to_pick(all), Some(0), "the first side opens every round");
    assert_eq!(m.left(1), 3, "the boss keeps both its turns");
}

#[test]
fn a_unit_that_acted_waits_and_a_side_with_nobody_left_is_skipped() {
    let mut m = Meter::new(2);
    let (h1, h2, h3) = (m.add(0, 1), m.add(0, 1), m.add(0, 1));
    let e = m.add(1, 1);
    assert!(m.fill(h1));
    assert!(m.fill(e));
    let heroes: Vec<usize> = m.candidates(0, |_| true).collect();
    assert_eq!(heroes, vec![h2, h3], "a hero that filled its slot waits for the next round");
    assert_eq!(m.side_to_pick(|_| true), Some(0));
    assert!(m.fill(h2));
    assert_eq!(m.side_to_pick(|_| true), Some(0), "the enemies have nothing left: the heroes go on");
    // A unit the caller rules out (removed from the fight for now) is not offered.
    assert_eq!(m.side_to_pick(|u| u != h3), None);
}

// --- dice pools -----------------------------------------------------------------------------

#[test]
fn a_pool_is_rolled_kept_and_spent_one_die_at_a_time() {
    let mut dice = ScriptedDice::new([6, 2, 4, 6], None);
    let mut pool = Pool::roll(&mut dice, 3, 6).unwrap();
    assert_eq!(pool.values(), &[6, 2, 4]);
    assert_eq!(pool.at_least(4), vec![4, 6]);
    assert!(pool.spend(4));
    assert!(!pool.spend(5), "no die shows 5");
    assert_eq!(pool.values(), &[6, 2]);
    pool.roll_more(&mut dice, 1, 6).unwrap();
    pool.add(3);
    assert_eq!(pool.values(), &[6, 2, 6, 3]);
    assert_eq!(pool.discard_highest(), Some(6));
    assert_eq!(pool.values(), &[2, 6, 3], "one 6 left the pool, the first");
    pool.adjust_all(|x| x - 4);
    assert_eq!(pool.values(), &[-2, 2, -1]);
    assert_eq!(pool.discard_lowest(), Some(-2));
    pool.clear();
    assert!(pool.is_empty() && pool.highest().is_none());
}

#[test]
fn a_power_roll_is_a_pool_of_two_summed() {
    let mut dice = ScriptedDice::new([9, 10], None);
    let roll = Pool::roll(&mut dice, 2, 10).unwrap();
    assert_eq!((roll.len(), roll.sum()), (2, 19));
    let mut short = ScriptedDice::new([3], None);
    assert!(Pool::roll(&mut short, 2, 10).is_err(), "the dice ran out");
    let kept = Pool::of([5, 1]);
    let json = serde_json::to_string(&kept).unwrap();
    assert_eq!(serde_json::from_str::<Pool>(&json).unwrap(), kept);
}
