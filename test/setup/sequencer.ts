/**
 * The order of a lane's files: the longest first, by the last run's durations, so a long wait
 * (shared pacing across processes, 30 s and more) never starts last and runs alone at the end.
 * Vitest's own order puts a failed file first and leaves one whose last result is missing
 * (a run that failed) wherever a comparison by size happens to put it: after one failed run the
 * pacing file started 40 s into its lane and held the suite 35 s longer. Files without a
 * duration go first, larger before smaller, as vitest orders them.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const weight = (spec: TestSpecification): [known: number, amount: number] => {
      const key = `${spec.project.name}:${relative(config.root, spec.moduleId)}`;
      const duration = cache.getFileTestResults(key)?.duration;
      if (duration !== undefined) return [1, duration];
      return [0, cache.getFileStats(key)?.size ?? Number.POSITIVE_INFINITY];
    };
    const keyed = files.map((spec) => ({ spec, weight: weight(spec) }));
    keyed.sort((a, b) => {
      const group = a.spec.project.config.sequence.groupOrder - b.spec.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (a.spec.project.name !== b.spec.project.name)
        return a.spec.project.name < b.spec.project.name ? -1 : 1;
      return a.weight[0] - b.weight[0] || b.weight[1] - a.weight[1];
    });
    return keyed.map(({ spec }) => spec);
  }
}
