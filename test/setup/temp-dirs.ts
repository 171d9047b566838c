/** Runs before every test file (vitest's setupFiles): what the file made outside its tests goes after them. */
import { afterAll } from 'vitest';
import { removeFileDirs } from '../helpers/temp-dir.js';

afterAll(removeFileDirs);
