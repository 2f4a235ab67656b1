"""The pure rules of a class run by a teacher: codes and secrets, caps, state transitions, answers, rate limits."""
