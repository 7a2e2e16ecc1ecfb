// Merits prints every attribute's merit by a Weka attribute evaluator to
// ten significant digits (the Ranker's printout keeps three), one line
// per attribute: index (1-based), name, merit. Run by gen.sh.
import weka.attributeSelection.ASEvaluation;
import weka.attributeSelection.AttributeEvaluator;
import weka.core.Instances;
import weka.core.converters.ConverterUtils.DataSource;

public class Merits {
    public static void main(String[] args) throws Exception {
        Instances data = DataSource.read(args[1]);
        data.setClassIndex(data.numAttributes() - 1);
        ASEvaluation ev = (ASEvaluation) Class.forName("weka.attributeSelection." + args[0]).getDeclaredConstructor().newInstance();
        ev.buildEvaluator(data);
        for (int i = 0; i < data.numAttributes() - 1; i++) {
            double m = ((AttributeEvaluator) ev).evaluateAttribute(i);
            System.out.printf("%d %s %.10g%n", i + 1, data.attribute(i).name(), m);
        }
    }
}
