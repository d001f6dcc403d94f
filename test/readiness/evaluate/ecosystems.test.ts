import { criterionCases } from './fixtures.js';

/** The smallest application of each ecosystem the agreement patterns name. */
const PY = { 'pyproject.toml': '[project]\nname = "svc"\nversion = "1.0"\n', 'svc/__init__.py': '' };
const JAVA = { 'pom.xml': '<project><artifactId>svc</artifactId></project>\n', 'src/main/java/App.java': 'class App {}\n' };
const SWIFT = { 'Package.swift': '// swift-tools-version:5.9\nimport PackageDescription\n', 'Sources/App/App.swift': 'struct App {}\n' };
const pom = (plugins: string) => ({ 'pom.xml': `<project><artifactId>svc</artifactId><build><plugins>${plugins}</plugins></build></project>\n` });
const pyDeps = (...names: string[]) => ({ ...PY, 'pyproject.toml': `[project]\nname = "svc"\ndependencies = [${names.map((n) => `"${n}"`).join(', ')}]\n` });

criterionCases('Python', [
  {
    id: 'integration_tests_exist',
    pass: { ...PY, 'tests/test_orders_integration.py': 'def test_x(): pass\n' },
    passNames: /tests\/test_orders_integration\.py/,
    fail: { ...PY, 'tests/test_orders.py': 'def test_x(): pass\n' },
    failNames: /test_\*_integration\.py/,
  },
  {
    id: 'integration_tests_exist',
    pass: { ...PY, 'pytest.ini': '[pytest]\nmarkers =\n    integration: needs the database\n', 'tests/test_a.py': '' },
    passNames: /pytest\.ini:2 \(pytest integration marker/,
    fail: { ...PY, 'pytest.ini': '[pytest]\nmarkers =\n    slow: takes long\n', 'tests/test_a.py': '' },
  },
  {
    id: 'structured_logging',
    pass: {
      ...PY,
      'svc/log_setup.py': 'import logging.config\nlogging.config.dictConfig({"formatters": {"j": {"()": "pythonjsonlogger.jsonlogger.JsonFormatter"}}})\n',
    },
    passNames: /svc\/log_setup\.py:2 \(Python logging configured with a JSON formatter/,
    // The standard library's logger alone is not a logging setup.
    fail: { ...PY, 'svc/app.py': 'import logging\nlog = logging.getLogger(__name__)\n' },
  },
  {
    id: 'structured_logging',
    pass: { ...PY, 'svc/app.py': 'from loguru import logger\n' },
    passNames: /svc\/app\.py:1 \(Python logging library: "from loguru import/,
    fail: PY,
  },
  {
    id: 'test_isolation',
    pass: { ...PY, 'pytest.ini': '[pytest]\naddopts = -n auto\n' },
    passNames: /pytest\.ini:2 \(parallel\/isolated test config: "-n auto/,
    fail: { ...PY, 'pytest.ini': '[pytest]\naddopts = -q\n' },
  },
  {
    id: 'database_schema',
    pass: { ...pyDeps('sqlalchemy', 'alembic'), 'alembic.ini': '[alembic]\n', 'alembic/versions/001_init.py': 'revision = "1"\n' },
    passNames: /alembic\.ini \(Alembic migrations\)/,
    // A SQL file of test data is not a schema.
    fail: { ...pyDeps('sqlalchemy'), 'tests/fixtures/rows.sql': 'INSERT INTO t VALUES (1);' },
    skip: PY,
    skipNames: /no database driver, ORM or migrations/,
  },
]);

criterionCases('Java', [
  {
    id: 'integration_tests_exist',
    pass: { ...JAVA, 'src/test/java/OrderServiceIT.java': 'class OrderServiceIT {}\n' },
    passNames: /OrderServiceIT\.java/,
    fail: { ...JAVA, 'src/test/java/OrderServiceTest.java': 'class OrderServiceTest {}\n' },
    failNames: /\*IT\.java/,
  },
  {
    id: 'integration_tests_exist',
    pass: { ...JAVA, ...pom('<plugin><artifactId>maven-failsafe-plugin</artifactId></plugin>') },
    passNames: /pom\.xml:1 \(Failsafe\/integrationTest task/,
    fail: JAVA,
  },
  {
    id: 'lint_config',
    pass: { ...JAVA, ...pom('<plugin><artifactId>spotbugs-maven-plugin</artifactId></plugin>') },
    passNames: /pom\.xml:1 \(SpotBugs plugin/,
    fail: JAVA,
    failNames: /Checkstyle config, PMD ruleset, SpotBugs filter/,
  },
  {
    id: 'lint_config',
    pass: { ...JAVA, ...pom('<plugin><groupId>com.google.errorprone</groupId><artifactId>error_prone_core</artifactId></plugin>') },
    passNames: /Error Prone/,
    fail: JAVA,
  },
  {
    id: 'naming_consistency',
    pass: {
      ...JAVA,
      'config/checkstyle/checkstyle.xml': '<module name="Checker">\n<module name="TreeWalker">\n<module name="MethodName"/>\n</module></module>\n',
    },
    passNames: /checkstyle\.xml:3 \(Checkstyle naming module/,
    // A Checkstyle file that checks no naming rule enforces no naming convention.
    fail: { ...JAVA, 'config/checkstyle/checkstyle.xml': '<module name="Checker"><module name="FileLength"/></module>\n' },
  },
  {
    id: 'naming_consistency',
    pass: { ...JAVA, 'pmd-ruleset.xml': '<ruleset><rule ref="category/java/codestyle.xml"/></ruleset>\n' },
    passNames: /pmd-ruleset\.xml:1 \(PMD naming rules/,
    fail: { ...JAVA, 'pmd-ruleset.xml': '<ruleset><rule ref="category/java/bestpractices.xml"/></ruleset>\n' },
  },
  {
    id: 'test_isolation',
    pass: { ...JAVA, 'src/test/resources/junit-platform.properties': 'junit.jupiter.execution.parallel.enabled = true\n' },
    passNames: /junit-platform\.properties:1 \(parallel\/isolated test config/,
    fail: { ...JAVA, 'src/test/resources/junit-platform.properties': 'junit.jupiter.execution.parallel.enabled = false\n' },
  },
  {
    id: 'database_schema',
    pass: {
      ...JAVA,
      ...pom('<dependency><artifactId>flyway-core</artifactId></dependency>'),
      'src/main/resources/db/migration/V1__init.sql': 'CREATE TABLE t (id int);',
    },
    passNames: /V1__init\.sql \(Flyway migrations\)/,
    fail: { ...JAVA, ...pom('<dependency><artifactId>spring-boot-starter-data-jpa</artifactId></dependency>') },
  },
  {
    id: 'database_schema',
    pass: {
      ...JAVA,
      ...pom('<dependency><artifactId>liquibase-core</artifactId></dependency>'),
      'src/main/resources/db/changelog/db.changelog-master.yaml': 'databaseChangeLog: []\n',
    },
    passNames: /db\.changelog-master\.yaml \(Liquibase changelog\)/,
    fail: { ...JAVA, ...pom('<dependency><artifactId>org.postgresql</artifactId></dependency>') },
  },
  {
    id: 'structured_logging',
    pass: { ...JAVA, 'src/main/resources/logback.xml': '<configuration/>\n' },
    passNames: /logback\.xml \(JVM logging configuration\)/,
    fail: JAVA,
  },
]);

criterionCases('Swift', [
  {
    id: 'integration_tests_exist',
    pass: { ...SWIFT, 'AppUITests/LoginUITests.swift': 'import XCTest\n' },
    passNames: /AppUITests\/LoginUITests\.swift/,
    fail: { ...SWIFT, 'Tests/AppTests/AppTests.swift': 'import XCTest\n' },
  },
  {
    id: 'structured_logging',
    pass: { ...SWIFT, 'Sources/App/Log.swift': 'import os\nlet log = Logger(subsystem: "app", category: "net")\n' },
    passNames: /Sources\/App\/Log\.swift:2 \(Swift os\.Logger\/swift-log/,
    fail: { ...SWIFT, 'Sources/App/Log.swift': 'print("hello")\n' },
  },
  {
    id: 'lint_config',
    pass: { ...SWIFT, '.swiftlint.yml': 'included:\n  - Sources\n' },
    passNames: /\.swiftlint\.yml \(SwiftLint config\)/,
    fail: SWIFT,
  },
  {
    id: 'naming_consistency',
    pass: { ...SWIFT, '.swiftlint.yml': 'disabled_rules:\n  - line_length\n' },
    passNames: /SwiftLint naming rules identifier_name and type_name are on/,
    fail: { ...SWIFT, '.swiftlint.yml': 'disabled_rules:\n  - identifier_name\n  - type_name\n' },
  },
  {
    id: 'test_isolation',
    pass: { ...SWIFT, Makefile: 'test:\n\tswift test --parallel\n' },
    passNames: /Makefile:2 \(parallel/,
    fail: { ...SWIFT, Makefile: 'test:\n\tswift test\n' },
  },
  {
    id: 'strict_typing',
    pass: SWIFT,
    passNames: /strict by default: swift/,
    fail: { 'tsconfig.json': '{}', 'package.json': '{"name":"a"}' },
  },
]);

criterionCases('TypeScript monorepo and schema tools', [
  {
    id: 'database_schema',
    pass: { 'package.json': JSON.stringify({ name: 'a', dependencies: { 'drizzle-orm': '1' } }), 'drizzle.config.ts': 'export default {};' },
    passNames: /drizzle\.config\.ts \(Drizzle config\)/,
    fail: { 'package.json': JSON.stringify({ name: 'a', dependencies: { 'drizzle-orm': '1' } }) },
  },
  {
    id: 'database_schema',
    pass: { 'package.json': JSON.stringify({ name: 'a', dependencies: { '@prisma/client': '1' } }), 'prisma/schema.prisma': 'model User { id Int @id }\n' },
    passNames: /prisma\/schema\.prisma \(Prisma schema\)/,
    fail: { 'package.json': JSON.stringify({ name: 'a', dependencies: { '@prisma/client': '1' } }) },
  },
]);
