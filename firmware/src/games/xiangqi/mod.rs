//! Xiangqi, Chinese chess (seed 004).
