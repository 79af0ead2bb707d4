import { useCheapHashingForTests } from '../src/auth/password.js';

// Every test file creates users; the production scrypt cost would dominate the suite's time.
useCheapHashingForTests();
