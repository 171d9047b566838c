/**
 * A checkbox list with search, which @inquirer/prompts lacks (its checkbox cannot filter, its
 * search chooses one): typing narrows the list, space (or tab) chooses the item under the cursor,
 * and choices stay chosen while the search changes. Enter ends it with the chosen values, in the
 * order of the list.
 */
import {
  createPrompt,
  isBackspaceKey,
  isDownKey,
  isEnterKey,
  isSpaceKey,
  isTabKey,
  isUpKey,
  makeTheme,
  type Theme,
  useKeypress,
  usePagination,
  usePrefix,
  useState,
} from '@inquirer/core';

/** One item of the list. */
export interface SearchChoice<Value> {
  value: Value;
  /** The line shown (a table row). */
  name: string;
  /** What the answer line shows once chosen; `name` by default. */
  short?: string;
  /** The text a search matches (case-insensitive, every word of the search); `name` by default. */
  search?: string;
}

/** What the prompt asks. */
export interface SearchCheckboxConfig<Value> {
  message: string;
  choices: readonly SearchChoice<Value>[];
  /** A line above the list (the table's column names). */
  header?: string;
  pageSize?: number;
  /** At least one must be chosen; this says so when none is. */
  required?: string;
}

/** `search` filters `choices`: each word of it must appear in the choice's search text. */
export function matchingChoices<Choice extends SearchChoice<unknown>>(
  choices: readonly Choice[],
  search: string,
): Choice[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...choices];
  return choices.filter((choice) => {
    const text = (choice.search ?? choice.name).toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

const prompt = createPrompt(
  (config: SearchCheckboxConfig<unknown>, done: (value: unknown[]) => void): [string, string] => {
    const theme = makeTheme<Theme>({});
    const [status, setStatus] = useState<'idle' | 'done'>('idle');
    const prefix = usePrefix({ status, theme });
    const [term, setTerm] = useState('');
    const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
    const [active, setActive] = useState(0);
    const [error, setError] = useState<string | undefined>(undefined);
    const indexed = config.choices.map((choice, index) => ({ ...choice, index }));
    const shown = matchingChoices(indexed, term);
    const cursor = Math.min(active, Math.max(0, shown.length - 1));

    // Space and tab choose; the line readline keeps is the search, so they are taken back out of it.
    const restore = (rl: { clearLine: (dir: 0) => void; write: (text: string) => void }) => {
      rl.clearLine(0);
      rl.write(term);
    };
    useKeypress((key, rl) => {
      if (isEnterKey(key)) {
        if (chosen.size === 0 && config.required) {
          setError(config.required);
          rl.write(term);
          return;
        }
        setStatus('done');
        done(config.choices.flatMap((choice, index) => (chosen.has(index) ? [choice.value] : [])));
        return;
      }
      if (isSpaceKey(key) || isTabKey(key)) {
        restore(rl);
        const item = shown[cursor];
        if (!item) return;
        const next = new Set(chosen);
        if (next.has(item.index)) next.delete(item.index);
        else next.add(item.index);
        setChosen(next);
        setError(undefined);
        return;
      }
      if (isUpKey(key) || isDownKey(key)) {
        // readline would take them for its history: the search stays as it was.
        restore(rl);
        if (shown.length === 0) return;
        const step = isUpKey(key) ? -1 : 1;
        setActive((cursor + step + shown.length) % shown.length);
        return;
      }
      if (rl.line !== term || isBackspaceKey(key)) {
        setTerm(rl.line);
        setActive(0);
      }
    });

    const page = usePagination({
      items: shown,
      active: cursor,
      renderItem: ({ item, isActive }) => {
        const box = chosen.has(item.index) ? '◉' : '◯';
        const line = `${isActive ? '❯' : ' '}${box} ${item.name}`;
        return isActive ? theme.style.highlight(line) : line;
      },
      pageSize: config.pageSize ?? 10,
      loop: false,
    });
    const message = theme.style.message(config.message, status);
    if (status === 'done') {
      const answer = config.choices
        .flatMap((choice, index) => (chosen.has(index) ? [choice.short ?? choice.name] : []))
        .join(', ');
      return [[prefix, message, theme.style.answer(answer)].filter(Boolean).join(' '), ''];
    }
    const counts = `${chosen.size} chosen of ${config.choices.length}${term ? ` · ${shown.length} match "${term}"` : ''}`;
    const help = theme.style.help('type to search · ↑↓ move · space choose · enter done');
    return [
      `${[prefix, message].filter(Boolean).join(' ')} ${term}`.trimEnd(),
      [
        config.header ? `   ${config.header}` : '',
        shown.length > 0 ? page : theme.style.error(`No match for "${term}"`),
        counts,
        error ? theme.style.error(error) : '',
        help,
      ]
        .filter(Boolean)
        .join('\n'),
    ];
  },
);

/** The prompt: resolves with the chosen values, in the order of `choices`. */
export const searchCheckbox = prompt as <Value>(
  config: SearchCheckboxConfig<Value>,
  context?: Parameters<typeof prompt>[1],
) => Promise<Value[]>;
