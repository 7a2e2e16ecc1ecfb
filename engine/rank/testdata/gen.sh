#!/bin/sh
# gen.sh remakes the Weka references of engine/rank's tests:
#   weka/<evaluator>_<data>.ranked  the Ranker's printout (Weka's own command line)
#   weka/<evaluator>_<data>.merits  every attribute's merit to ten digits (Merits.java)
# for tealab's built-ins breast_cancer, iris and wine, exported as ARFF by
# ./export, and iris_missing.arff (iris with missing values and nominal
# columns, kept here for the tests to read). Needs Weka 3.6 (Debian: apt-get install weka) and a JDK.
# Run from the repository's root: sh engine/rank/testdata/gen.sh
set -eu
here=engine/rank/testdata
weka=/usr/share/java/weka.jar
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./$here/export "$tmp"
javac -cp $weka -d "$tmp" $here/Merits.java
mkdir -p $here/weka
cp "$tmp/iris_missing.arff" $here/
for data in breast_cancer iris wine iris_missing; do
  for ev in InfoGainAttributeEval GainRatioAttributeEval ChiSquaredAttributeEval ReliefFAttributeEval; do
    cmd="java -cp $weka weka.attributeSelection.$ev -s \"weka.attributeSelection.Ranker -T -1.7976931348623157E308 -N -1\" -i $data.arff"
    {
      echo "# $cmd"
      (cd "$tmp" && java -cp $weka weka.attributeSelection.$ev -s "weka.attributeSelection.Ranker -T -1.7976931348623157E308 -N -1" -i $data.arff) |
        sed -n '/Ranked attributes/,/Selected attributes/p'
    } > $here/weka/${ev}_$data.ranked
    {
      echo "# java -cp $weka:. Merits $ev $data.arff"
      (cd "$tmp" && java -cp $weka:. Merits $ev $data.arff)
    } > $here/weka/${ev}_$data.merits
  done
done
# A numeric target: ReliefF alone (RReliefF); the others take classes.
for data in diabetes; do
  for ev in ReliefFAttributeEval; do
    {
      echo "# java -cp $weka weka.attributeSelection.$ev -s \"weka.attributeSelection.Ranker -T -1.7976931348623157E308 -N -1\" -i $data.arff"
      (cd "$tmp" && java -cp $weka weka.attributeSelection.$ev -s "weka.attributeSelection.Ranker -T -1.7976931348623157E308 -N -1" -i $data.arff) |
        sed -n '/Ranked attributes/,/Selected attributes/p'
    } > $here/weka/${ev}_$data.ranked
    {
      echo "# java -cp $weka:. Merits $ev $data.arff"
      (cd "$tmp" && java -cp $weka:. Merits $ev $data.arff)
    } > $here/weka/${ev}_$data.merits
  done
done
