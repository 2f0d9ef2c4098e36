//! The terminal table (issue 14, item 5): a person at the prompt, scripted through stdin, sees a
//! legend and a glyph per unit, the squares a move reaches and the targets a power can hit
//! numbered on the board, warnings of Opportunities and turn ends, targets' side, distance and
//! HP, and reads look-up text with `info` and `rules` without leaving the prompt; `fray view
//! --step` replays a save one decision at a time; `play --help` names every system's seats and
//! table options.

use crate::common::fray;
use std::io::Write;
use std::process::{Command, Stdio};

const ARENA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/close-quarters.toml");

/// `fray ARGS` with `input` typed at the prompt.
fn typed(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.as_mut().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    text
}

/// Red at the prompt on the small arena: ada stands at (1,1), dax (blue) at (4,1), eve at (6,1).
fn red(input: &str) -> String {
    typed(&["play", "kazzam", "--seat", "red", "--map", ARENA], input)
}

#[test]
fn the_board_has_a_legend_and_a_glyph_for_each_unit() {
    let text = red("quit\n");
    assert!(text.contains("legend:") && text.contains("# wall") && text.contains("R red pedestal"), "{text}");
    assert!(text.contains("units: AB red, ab blue"), "{text}");
    assert!(text.contains("> AD ada ") && text.contains("  da dax ") && text.contains("  ev eve "), "{text}");
    assert!(text.contains(" 1 .  AD BO .  da .  ev .  ."), "{text}");
}

#[test]
fn glyphs_stay_unique_when_ids_begin_alike() {
    // The built-in arena's bears and beasts all begin "be".
    let text = typed(&["play", "kazzam", "--seat", "red"], "quit\n");
    for line in ["  Be bear-1 ", "  B2 bear-2 ", "  B1 beast-1 ", "  Ba beast-2 ", "  B3 beast-3 "] {
        assert!(text.contains(line), "{line}: {text}");
    }
    assert!(text.contains("Ab neutral"), "{text}");
}

#[test]
fn a_move_numbers_its_squares_on_the_board_and_warns_of_opportunities() {
    let text = red("1\nquit\n");
    // Every square ada may walk to carries its option's number, a `!` before those that warn.
    assert!(text.contains(" 0 1  2  3  4 !5 !6 !7 !8  B"), "{text}");
    assert!(text.contains(" 1 9  AD BO 10 da!11 ev!12 ."), "{text}");
    assert!(text.contains("highlighted numbers: the options of that number"), "{text}");
    assert!(text.contains("!N: option N has a warning (below)"), "{text}");
    // Many squares are listed several to a line, the warnings once each with their options.
    assert!(text.contains("  1. 0,0      2. 1,0      3. 2,0      4. 3,0      5. 4,0!     6. 5,0!"), "{text}");
    assert!(text.contains("  ! grants an Opportunity to dax: 5, 6, 11\n"), "{text}");
    assert!(text.contains("  ! grants Opportunities to dax, eve: 7, 8, 12, 17, 18, 25, 26\n"), "{text}");
    assert!(text.contains("  27. cancel         back to the action menu"), "{text}");
}

#[test]
fn draw_steel_warns_of_opportunity_attacks_too() {
    // Both seats at the prompt: the hound walks up beside vessa, then vessa is asked where to go.
    let input = "vessa\nend-turn\nhound\nadvance\n2,2\nend-turn\ncorin\nend-turn\nbrute\nend-turn\narcher\nend-turn\nvessa\nadvance\nquit\n";
    let text = typed(&["play", "drawsteel", "--seat", "heroes", "--seat", "director", "--seed", "1"], input);
    assert!(text.contains("! hound may make an opportunity attack: "), "{text}");
    assert!(text.contains("end-turn       end your turn  ! ends the turn"), "{text}");
}

#[test]
fn options_that_end_the_turn_say_so() {
    let text = red("quit\n");
    assert!(text.contains("end-turn       end your turn  ! ends the turn"), "{text}");
    assert!(text.contains("Basic Implement Attack  ! a staff implement attack ends the turn"), "{text}");
    assert!(!text.contains("Reveal  !"), "{text}");
}

#[test]
fn a_power_numbers_its_targets_with_side_distance_and_hp() {
    let text = red("4\nquit\n");
    assert!(text.contains(" 1 .  AD 1  .  3  .  4  .  ."), "{text}");
    assert!(text.contains("[BO red (ally), adjacent, 8/8 HP]"), "{text}");
    assert!(text.contains("3. dax            Dax at (4,1)  [da blue (enemy), 3 squares away, 8/8 HP]"), "{text}");
    assert!(text.contains("[ev blue (enemy), 5 squares away, 8/8 HP]"), "{text}");
}

#[test]
fn info_and_rules_at_the_prompt_print_the_look_up_text() {
    let (_, reveal, _) = fray(&["rules", "kazzam", "reveal"]);
    let (_, prone, _) = fray(&["rules", "kazzam", "prone"]);
    let text = red("info 5\nrules prone\ninfo power:basic-implement-attack\nquit\n");
    assert!(text.contains(reveal.trim_end()), "{text}");
    assert!(text.contains(prone.trim_end()), "{text}");
    assert!(text.contains("Basic Implement Attack [power, basic-implement-attack]"), "{text}");
    // A target names the unit: its HP, square and powers.
    let text = red("4\ninfo 3\nquit\n");
    assert!(text.contains("Dax (dax, blue): 8/8 HP at (4,1)") && text.contains("powers: "), "{text}");
    let text = red("help\nrules no-such-thing-at-all\nquit\n");
    assert!(text.contains("info N ") && text.contains("nothing found for"), "{text}");
}

#[test]
fn draw_steel_gets_the_same_board() {
    let text = typed(&["play", "drawsteel", "--seat", "heroes"], "1\n1\nquit\n");
    assert!(text.contains("units: AB heroes, ab director"), "{text}");
    assert!(text.contains("# wall") && text.contains("~ difficult terrain"), "{text}");
    assert!(text.contains(" VE vessa ") && text.contains("  br brute "), "{text}");
    assert!(text.contains("highlighted numbers: the options of that number"), "{text}");
}

/// Panic at the Dojo (issue 17): a person plays the heroes at the prompt; bots play a whole
/// fight; the look-up, scenarios, saves and the encounter check work as for the others.
#[test]
fn dojo_plays_at_the_prompt_and_with_bots() {
    let text = typed(&["play", "dojo", "--seat", "heroes", "--seed", "2"], "1\n1\n1\n1\nquit\n");
    assert!(text.contains("units: AB heroes, ab enemies") && text.contains("# Wall"), "{text}");
    assert!(text.contains("which Stance this turn?") && text.contains("Heroic Iron Stance"), "{text}");
    // Ada is a Fused Wardancer: two raises of 2 after the roll, then the turn's menu.
    assert!(text.contains("Wardancer: raise numbers (2 left)"), "{text}");
    assert!(text.contains("movement:8") && text.contains("burning-heart:6"), "{text}");
    let (code, out, err) =
        fray(&["play", "dojo", "--seed", "3", "--quiet", "--bot", "heroes=greedy", "--bot", "enemies=greedy"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Taken Out") || out.contains("rounds are over"), "{out}");
    let (code, out, _) = fray(&["rules", "dojo", "Bring It On"]);
    assert_eq!(code, 0);
    assert!(out.contains("D-BA-8"), "{out}");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/dojo");
    let (code, out, err) = fray(&["scenario", dir]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(" 0 failed"), "{out}");
    let enc = concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/dojo/encounter.toml");
    let (code, out, _) = fray(&["build", "dojo", enc]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Sensei Vex (Boss, enemies): 2 bar(s)"), "{out}");
    let (code, _, err) = fray(&["play", "dojo", "--option", "boss-die=99"]);
    assert_ne!(code, 0);
    assert!(err.contains("boss-die"), "{err}");
}

#[test]
fn view_step_replays_a_save_one_decision_at_a_time() {
    let dir = std::env::temp_dir().join(format!("fray-table-step-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("m.json");
    let save = save.to_str().unwrap();
    let (code, _, err) =
        fray(&["play", "kazzam", "--seed", "4", "--quiet", "--option", "round-limit=1", "--save", save]);
    assert_eq!(code, 0, "{err}");
    let steps = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(save).unwrap()).unwrap()["inputs"]
        .as_array()
        .unwrap()
        .len();
    let text = typed(&["view", save, "--step"], "\n\nq\n");
    assert!(text.contains(&format!("step 1 of {steps}: red (action): cy: choose an action")), "{text}");
    assert!(text.contains("  chose ") && text.contains(&format!("step 3 of {steps}")), "{text}");
    assert!(text.contains(&format!("stopped at step 3 of {steps}")), "{text}");
    assert!(text.contains("[Enter: next step, q: stop]"), "{text}");
    // Enter all the way replays to the end, as `fray view` shows it.
    let text = typed(&["view", save, "--step"], &"\n".repeat(steps));
    assert!(text.contains(&format!("end of the saved match ({steps} steps)")), "{text}");
    let (_, end, _) = fray(&["view", save]);
    let summary = end.lines().find(|l| l.contains("round")).unwrap();
    assert!(text.contains(summary), "{summary}\n{text}");
    let (code, _, err) = fray(&["view", "--step", "scenarios/none.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("--step replays a saved match"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_help_names_every_systems_seats_and_table_options() {
    let (code, text, _) = fray(&["play", "--help"]);
    assert_eq!(code, 0);
    for want in ["kazzam", "red", "blue", "creeps=", "round-limit=", "drawsteel", "heroes", "director", "push="] {
        assert!(text.contains(want), "{want}: {text}");
    }
}

#[test]
fn carried_orbs_orbs_on_the_ground_and_empty_pedestals_are_drawn() {
    let scenario = |name: &str| {
        let path = format!("{}/../../scenarios/kazzam/{name}.toml", env!("CARGO_MANIFEST_DIR"));
        let (code, text, err) = fray(&["view", &path]);
        assert_eq!(code, 0, "{err}");
        text
    };
    // bo has carried the neutral orb out of the Dungeon: its pedestal is empty.
    let text = scenario("dungeon-orb-carrier-exits-anywhere");
    assert!(text.contains(" 1 n  D  X ") && text.contains(" 2 D  D  #  .  .  .  .  .  . *bo"), "{text}");
    assert!(text.contains("n empty neutral pedestal") && text.contains("*AB carries an orb"), "{text}");
    assert!(!text.contains("N neutral pedestal"), "the legend names only what the board shows: {text}");
    assert!(text.contains("carries orb n-1"), "{text}");
    let text = scenario("orb-drop-is-a-free-action");
    assert!(text.contains(" 1 .  *  .  .  bo") && text.contains("* orb on the ground"), "{text}");
}

#[test]
fn draw_steel_takes_its_table_options() {
    let (code, out, err) =
        fray(&["play", "drawsteel", "--quiet", "--option", "push=glossary", "--option", "round-limit=2"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty(), "{out}");
    let (code, _, err) = fray(&["play", "drawsteel", "--option", "pushh=glossary"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown field `pushh`") && err.contains("`push`"), "{err}");
}

/// Panic at the Dojo's enemy chapter (issue 17): the sample heroes against a force by name, the
/// look-up of an enemy, and a clear error for an unknown one.
#[test]
fn dojo_fights_an_enemy_force() {
    let (code, out, err) = fray(&["play", "dojo", "--home", "sample", "--away", "cyborg", "--seed", "4", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Zero Troubles") || out.contains("zero-troubles"), "{out}");
    assert!(out.contains("Taken Out") || out.contains("rounds are over"), "{out}");
    let (code, out, _) = fray(&["rules", "dojo", "The Judge"]);
    assert_eq!(code, 0);
    assert!(out.contains("Judgment Iron"), "{out}");
    let (code, _, err) = fray(&["play", "dojo", "--home", "sample", "--away", "nobody"]);
    assert_ne!(code, 0);
    assert!(err.contains("nobody"), "{err}");
    // `--away` alone is refused by the argument parser, naming the missing `--home`.
    let (code, _, err) = fray(&["play", "dojo", "--away", "angel"]);
    assert_ne!(code, 0);
    assert!(err.contains("--home"), "{err}");
}

/// Panic at the Dojo's three-way battles (D-CMP-4): a side file naming `rivals` seats a third
/// side, which takes its own bot and plays to the end.
#[test]
fn dojo_plays_a_three_way_battle() {
    let dir = std::env::temp_dir().join(format!("fray-three-way-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let side = dir.join("three-way.toml");
    std::fs::write(&side, "enemies = [\"angel\"]\nrivals = [\"the-judge\", \"the-choir\"]\n").unwrap();
    let side = side.to_str().unwrap();
    let (code, out, err) =
        fray(&["play", "dojo", "--home", "sample", "--away", side, "--seed", "5", "--quiet", "--bot", "rivals=greedy"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rivals"), "{out}");
    assert!(out.contains("win") || out.contains("rounds are over"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Panic at the Dojo (issue 17): a person at the heroes' prompt fights a whole duel, answering
/// each question as it comes (a stray word first, `info` on a Stance, then hits and steps toward
/// the Warrior), until the fight is over; every prompt says what may be typed.
#[test]
fn dojo_person_fights_a_whole_encounter_at_the_prompt() {
    use std::io::{BufRead, BufReader};
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dojo-duel.toml");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["play", "dojo", "--seat", "heroes", "--map", duel, "--option", "weight=featherweight", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    let mut options: Vec<String> = Vec::new();
    let mut answers = 0;
    for line in stdout.lines() {
        let line = line.unwrap();
        text.push_str(&line);
        text.push('\n');
        // An option line: "  12. damage:5     Damage ...".
        let t = line.trim_start();
        if let Some((n, rest)) = t.split_once(". ")
            && n.parse::<usize>().is_ok()
            && line.starts_with(' ')
        {
            options.push(rest.split_whitespace().next().unwrap_or("").to_string());
        }
        if !line.starts_with("(a number or an option id") {
            continue;
        }
        assert!(!options.is_empty(), "a prompt with no options:\n{text}");
        // What a newcomer might type: at the first prompt a stray word and a look-up, then a hit
        // when one is offered, else a step or Speed toward the Warrior, else the first option.
        let hit = options.iter().find(|o| o.starts_with("damage:"));
        let step = options.iter().find(|o| o.contains(',') && !o.contains(':'));
        let speed = options.iter().find(|o| o.starts_with("movement:"));
        let pick = hit.or(step).or(speed).unwrap_or(&options[0]).clone();
        let answer = if answers == 0 { format!("attack\ninfo 1\n{pick}") } else { pick };
        options.clear();
        answers += 1;
        assert!(answers < 400, "no end after {answers} answers:\n{text}");
        writeln!(stdin, "{answer}").unwrap();
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{text}");
    // A stray word gets what may be typed, and changes nothing.
    assert!(text.contains("> choose a number from 1 to 3 or an option id"), "{text}");
    // `info` on a Stance tells its Form (and Style, when it has one).
    assert!(text.contains("Power Form"), "{text}");
    // The roster shows what the fight's state is: a unit's Stance and tokens.
    assert!(text.contains("[Power") || text.contains(", Power"), "{text}");
    // The fight reached its end: the heroes won (the Warrior Taken Out) or it stopped on rounds.
    let end = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    assert!(end.contains("Taken Out") || end.contains("rounds are over"), "{end}\n{text}");
    assert!(text.contains("the heroes win"), "{text}");
}
