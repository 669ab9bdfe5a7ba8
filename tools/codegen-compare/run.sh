#!/usr/bin/env bash
# Compares fabric8's and kubeloop's CRD code generators on kubeloop's real-world CRD fixtures.
# Prints a Markdown report and writes it to target/RESULTS.md. See README.md.
#
#   tools/codegen-compare/run.sh [fixtures dir [fixture name…]]
#
# Needs a JDK 21+ (JAVA_HOME_21, else the newest in JAVA_HOME or the standard JVM folders) and the
# kubeloop 0.1.0-SNAPSHOT artifacts in the local Maven repository (mvn install of the kubeloop build).
set -euo pipefail
start=$SECONDS
here="$(cd "$(dirname "$0")" && pwd)"
fixtures="$(cd "${1:-$here/../../kubeloop-codegen/src/test/resources/real-crds}" && pwd)"
java_major() { "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p'; }
best="${JAVA_HOME_21:-}" best_v=0
if [ -z "$best" ]; then
  for d in "${JAVA_HOME:-}" /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk*; do
    [ -n "$d" ] && [ -x "$d/bin/java" ] && [ -x "$d/bin/javac" ] || continue
    v="$(java_major "$d/bin/java")"; v="${v:-0}"
    if [ "$v" -ge 21 ] && [ "$v" -gt "$best_v" ]; then best="$d"; best_v="$v"; fi
  done
fi
[ -n "$best" ] || { echo "codegen-compare: no JDK 21 or newer found (set JAVA_HOME_21)" >&2; exit 1; }
export JAVA_HOME="$best"
# Maven 3.8's Guava calls sun.misc.Unsafe, which JDK 24+ warns about on every run.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
cd "$here"

echo "compiling the comparison tool and resolving the class paths (Maven) …" >&2
# Maven's output goes to stderr, without the colour resets it writes even in batch mode.
mvnq() { mvn -q -B "$@" 2>&1 | sed $'s/\e\\[0m//g' >&2; }
mvnq compile
# One class path per profile of pom.xml: the generators need incompatible versions of the same jars.
for profile in compare fabric8-generator fabric8-runtime fabric8-crd-generator kubeloop; do
  mvnq -P"$profile" dependency:build-classpath -Dmdep.outputFile="target/classpath/$profile.txt"
done

"$JAVA_HOME/bin/java" -cp "target/classes:$(cat target/classpath/compare.txt)" \
  codegencompare.CodegenCompare "$fixtures" target "${@:2}"
echo "report written to $here/target/RESULTS.md; total $((SECONDS - start)) s" >&2
