//! EinStein würfelt nicht! (seed 001).
