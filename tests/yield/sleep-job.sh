# Job for tests/yield/smt-yield.sh: a guest that stays up until killed.
sleep 600
