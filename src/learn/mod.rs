//! Learning the scheme: the guided lesson ([`lesson`]) and the exercises ([`exercise`]) are pure
//! models (the clock is an input); [`progress`] keeps the learner's place and scores in the data
//! directory. `signscope learn` drives them on a terminal line by line.

pub mod exercise;
pub mod lesson;
pub mod progress;
