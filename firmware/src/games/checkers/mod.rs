//! Chinese checkers (seed 000): the 121-hole star for 2–6 players.
