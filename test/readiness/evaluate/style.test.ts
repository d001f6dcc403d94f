import { criterionCases, deps, NODE_APP, pkg, workflow } from './fixtures.js';

const manySources = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`src/m${i}.ts`, `export const m${i} = ${i};\n`]));

criterionCases('Style & Validation', [
  { id: 'lint_config', pass: { ...NODE_APP, 'eslint.config.js': 'export default [];' }, passNames: /eslint\.config\.js \(ESLint config\)/, fail: NODE_APP, failNames: /looked for ESLint config/ },
  { id: 'type_check', pass: { ...NODE_APP, 'tsconfig.json': '{}' }, passNames: /tsconfig\.json/, fail: { ...NODE_APP, 'index.js': '' }, failNames: /no type checker config/ },
  { id: 'formatter', pass: { ...NODE_APP, '.prettierrc': '{}' }, passNames: /\.prettierrc \(Prettier config\)/, fail: NODE_APP, failNames: /Prettier config/ },
  { id: 'pre_commit_hooks', pass: { ...NODE_APP, '.husky/pre-commit': 'npx lint-staged' }, passNames: /\.husky\/pre-commit/, fail: NODE_APP, failNames: /hook configuration/ },
  {
    id: 'strict_typing',
    pass: { ...NODE_APP, 'tsconfig.json': '{"compilerOptions": {"strict": true}}' },
    passNames: /tsconfig\.json sets "strict": true/,
    fail: { ...NODE_APP, 'tsconfig.json': '{"compilerOptions": {}}' },
    failNames: /tsconfig\.json without "strict": true/,
    skip: { ...NODE_APP, 'index.js': '' },
    skipNames: /strictness is unclear/,
  },
  {
    id: 'naming_consistency',
    pass: { ...NODE_APP, 'eslint.config.js': "export default [{ rules: { '@typescript-eslint/naming-convention': 'error' } }];" },
    passNames: /eslint\.config\.js \(ESLint naming rule/,
    fail: { ...NODE_APP, 'eslint.config.js': 'export default [];' },
    failNames: /written naming convention/,
  },
  { id: 'cyclomatic_complexity', pass: { ...NODE_APP, 'eslint.config.js': 'export default [{ rules: { complexity: ["error", 10] } }];' }, passNames: /ESLint complexity rule/, fail: NODE_APP, failNames: /complexity/ },
  { id: 'large_file_detection', pass: { ...NODE_APP, '.gitattributes': '*.bin filter=lfs diff=lfs merge=lfs -text\n' }, passNames: /\.gitattributes \(Git LFS/, fail: NODE_APP, failNames: /check-added-large-files/ },
  { id: 'dead_code_detection', pass: { ...NODE_APP, 'knip.json': '{}' }, passNames: /knip\.json \(knip config\)/, fail: NODE_APP, failNames: /knip config/ },
  { id: 'duplicate_code_detection', pass: { ...NODE_APP, '.jscpd.json': '{}' }, passNames: /\.jscpd\.json/, fail: NODE_APP, failNames: /jscpd/ },
  {
    id: 'code_modularization',
    pass: { ...NODE_APP, ...manySources, '.dependency-cruiser.cjs': 'module.exports = {};' },
    passNames: /\.dependency-cruiser\.cjs/,
    fail: { ...NODE_APP, ...manySources },
    failNames: /dependency-cruiser config/,
    skip: { ...NODE_APP, 'src/a.ts': '' },
    skipNames: /small project \(1 source files/,
  },
  { id: 'tech_debt_tracking', pass: { ...NODE_APP, ...workflow('npx leasot "src/**/*.ts"') }, passNames: /\.github\/workflows\/ci\.yml \(TODO\/FIXME scanner in CI/, fail: NODE_APP, failNames: /TODO\/FIXME scanner/ },
  {
    id: 'n_plus_one_detection',
    pass: { ...deps('pg', 'dataloader') },
    passNames: /package\.json \(N\+1 detection: "dataloader/,
    fail: deps('pg'),
    failNames: /N\+1 detection/,
    skip: pkg({}),
    skipNames: /no database driver, ORM or migrations/,
  },
]);
