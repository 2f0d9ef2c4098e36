//! Dice: every random number a ruleset uses comes through the [`Dice`] trait, so a match is
//! reproduced by its setup, its seed and its choices, and a scenario can script exact rolls.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use thiserror::Error;

/// Why a die could not be rolled.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DiceError {
    /// A scripted sequence ran out and no seed was given to continue from.
    #[error("the scripted dice ran out: roll {index} (a d{sides}) has no value; add it to [dice] rolls or give a seed")]
    Exhausted {
        /// 1-based number of the roll that found nothing.
        index: usize,
        /// Size of the die being rolled.
        sides: u32,
    },
    /// A scripted value cannot come up on the die being rolled.
    #[error("scripted roll {index} is {value}, which cannot come up on a d{sides}")]
    Impossible {
        /// 1-based number of the roll.
        index: usize,
        /// The scripted value.
        value: u32,
        /// Size of the die being rolled.
        sides: u32,
    },
}

/// A source of die rolls.
pub trait Dice {
    /// Rolls one die with `sides` faces: a value from 1 to `sides`.
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError>;
}

/// Seeded dice for play and simulation (ChaCha8: fast, portable, reproducible).
#[derive(Clone, Debug)]
pub struct SeededDice(ChaCha8Rng);

impl SeededDice {
    /// Dice that always produce the same rolls for the same seed.
    pub fn new(seed: u64) -> Self {
        SeededDice(ChaCha8Rng::seed_from_u64(seed))
    }
}

impl Dice for SeededDice {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        Ok(self.0.gen_range(1..=sides.max(1)))
    }
}

/// A fixed sequence of rolls, optionally continued by seeded dice once it runs out.
#[derive(Clone, Debug)]
pub struct ScriptedDice {
    rolls: VecDeque<u32>,
    used: usize,
    then: Option<SeededDice>,
}

impl ScriptedDice {
    /// Dice that show `rolls` in order; with `seed`, random rolls follow, otherwise running out
    /// is an error.
    pub fn new(rolls: impl IntoIterator<Item = u32>, seed: Option<u64>) -> Self {
        ScriptedDice { rolls: rolls.into_iter().collect(), used: 0, then: seed.map(SeededDice::new) }
    }
    /// How many scripted values have not been rolled yet.
    pub fn remaining(&self) -> usize {
        self.rolls.len()
    }
}

impl Dice for ScriptedDice {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        self.used += 1;
        match self.rolls.pop_front() {
            Some(v) if v >= 1 && v <= sides => Ok(v),
            Some(v) => Err(DiceError::Impossible { index: self.used, value: v, sides }),
            None => match &mut self.then {
                Some(d) => d.roll(sides),
                None => Err(DiceError::Exhausted { index: self.used, sides }),
            },
        }
    }
}

/// Either kind of dice, so a session can hold one and clone it cheaply.
#[derive(Clone, Debug)]
pub enum AnyDice {
    /// Seeded random dice.
    Seeded(SeededDice),
    /// Scripted dice.
    Scripted(ScriptedDice),
}

impl Dice for AnyDice {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        match self {
            AnyDice::Seeded(d) => d.roll(sides),
            AnyDice::Scripted(d) => d.roll(sides),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rolls() {
        let mut a = SeededDice::new(7);
        let mut b = SeededDice::new(7);
        for _ in 0..100 {
            assert_eq!(a.roll(6), b.roll(6));
        }
    }

    #[test]
    fn scripted_dice_refuse_impossible_values_and_run_out() {
        let mut d = ScriptedDice::new([3, 7], None);
        assert_eq!(d.roll(6), Ok(3));
        assert_eq!(d.roll(6), Err(DiceError::Impossible { index: 2, value: 7, sides: 6 }));
        assert_eq!(d.roll(6), Err(DiceError::Exhausted { index: 3, sides: 6 }));
    }
}
