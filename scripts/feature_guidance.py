#!/usr/bin/env python
"""A ViT trained with a CNN's features as a guide: the feature-level distillation of *Locality
Guidance for Improving Vision Transformers on Tiny Datasets* (Li et al., ECCV 2022). Besides the
loss on the labels, the tokens of three blocks (the first, the middle and the last), each through a
linear map of its own, imitate the feature maps of a trained CNN's last three stages on the same
augmented images: the mean squared error of each pair, both resized to the larger grid of the two,
summed and times WEIGHT (the paper's 2.5). The maps train with the student and are dropped after;
the run folder holds the student alone, as `vit_small_ds_train` writes it (its training `loss`
includes the guidance; `val_loss` does not).

    python scripts/feature_guidance.py --guide CNN_RUN --guide-weight WEIGHT [FLAGS]
    python scripts/feature_guidance.py --guide runs/g/cnn_teacher_seed1 --guide-weight 2.5 \
        --dataset fashion_mnist --epochs 4 --seed 1 --output runs/g/sl_vit_guided_seed1

CNN_RUN: a finished `vit_small_ds_train --model cnn` run that split the data as this run does (it
has not seen the student's validation images), with a normalizing recipe as the student's. FLAGS:
those of `vit_small_ds_train`, for a ViT model in one process, without `--init-from`.
"""

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import keras
from keras import layers, ops

from vit_small_ds.cli.commands import run_spec
from vit_small_ds.layers.augmentation import normalization_layers
from vit_small_ds.training.hardware import using_dtype_policy
from vit_small_ds.training.loop import CLASSIFICATION, Objective, run_experiment
from vit_small_ds.training.run import (
    _loaded_teacher,
    chosen_for_data,
    create_run_model,
    resolved_spec,
    run_record,
    say_what_runs,
)
from vit_small_ds.training.run_checks import checked_config
from vit_small_ds.training.run_files import finish_run, summary


class GuidedStudent(keras.Model):
    """`student`'s logits; in training, also the guidance loss (`add_loss`) of its tokens against
    `teacher`'s feature maps. Never saved: the run keeps `student`."""

    def __init__(self, student: keras.Model, teacher: keras.Model, weight: float):
        super().__init__(name=student.name)
        blocks = [layer.name for layer in student.layers if layer.name.startswith("block")]
        guided = [blocks[0], blocks[len(blocks) // 2], blocks[-1]]
        augmentation = student.layers[1]  # after the input: the images as the blocks see them
        self.student, self.weight = student, weight
        self.class_token = any(layer.name == "class_token" for layer in student.layers)
        self.student_features = keras.Model(
            student.inputs,
            [student.output, augmentation.output]
            + [student.get_layer(name).output for name in guided],
        )
        if not (normalization_layers(student) and normalization_layers(teacher)):
            raise ValueError("the student and the teacher must both normalize their images")
        stages = [layer for layer in teacher.layers if layer.name.endswith("_out")]
        last_of_stage = {layer.name.split("_")[0]: layer for layer in stages}  # its last block
        maps = [layer.output for layer in list(last_of_stage.values())[-3:]]
        # the teacher after its own augmentation, which the student's replaces
        stem = teacher.get_layer("stem").input
        self.teacher_size = tuple(stem.shape[1:3])
        self.teacher_features = keras.Model(stem, maps)
        self.teacher_features.trainable = False
        self.projections = [
            layers.Dense(feature.shape[-1], name=f"guide{i}") for i, feature in enumerate(maps)
        ]
        for projection, name in zip(self.projections, guided):
            projection.build(student.get_layer(name).output.shape)
        self.built = True  # with every weight now: a resumed run loads them before any step

    @property
    def output_shape(self):  # the loss and metrics are the student's
        return self.student.output_shape

    def call(self, images, training=False):
        logits, augmented, *tokens = self.student_features(images, training=training)
        if training:
            if tuple(augmented.shape[1:3]) != self.teacher_size:  # at the teacher's image size
                augmented = ops.image.resize(augmented, self.teacher_size, interpolation="bilinear")
            targets = self.teacher_features(augmented, training=False)
            self.add_loss(
                self.weight * sum(map(self._imitation, self.projections, tokens, targets))
            )
        return logits

    def _imitation(self, projection, tokens, target):
        "The mean squared error of `tokens` `(B, T, D)` as a map, projected, against `target`."
        if self.class_token:
            tokens = tokens[:, 1:]
        grid = round(tokens.shape[1] ** 0.5)
        predicted = ops.reshape(projection(tokens), (-1, grid, grid, target.shape[-1]))
        side = max(grid, target.shape[1])
        predicted, target = (
            ops.image.resize(ops.cast(x, "float32"), (side, side), interpolation="bilinear")
            for x in (predicted, target)
        )
        return ops.mean(ops.square(predicted - target))


def _finish(model, data, config, test, folder, best_weights, fit_seconds):
    "The student's run files: `finish_run` of the student's weights from the best checkpoint."
    model.load_weights(best_weights)
    student = model.student
    student.compile(**CLASSIFICATION.compiled(student, config))
    # built, so that model.keras loads without a warning (an unused RMSprop: AdamW trained the
    # wrapper, whose variables it holds)
    student.optimizer.build(student.trainable_variables)
    student_weights = str(Path(folder) / "best_student.weights.h5")
    student.save_weights(student_weights)
    finished = finish_run(student, data, config, test, folder, student_weights, fit_seconds)
    Path(best_weights).unlink()  # the wrapper's, kept until the run's files are written
    return finished


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guide", required=True, help="a finished CNN run folder")
    parser.add_argument("--guide-weight", type=float, default=2.5)
    guide, flags = parser.parse_known_args(argv)
    asked = run_spec(flags)
    spec = resolved_spec(asked, keep_files=True)
    if spec.init_from or spec.distribute or spec.in_a_group:
        parser.error("--init-from, --distribute and process groups are for vit_small_ds_train")
    data = spec.split_data()
    spec, chosen = chosen_for_data(spec, data)
    teacher, _ = _loaded_teacher(guide.guide, spec)
    keras.utils.set_random_seed(spec.train.seed)
    with using_dtype_policy(spec.train.dtype_policy):
        student = create_run_model(spec, data)  # the same weights as `vit_small_ds_train`'s
        say_what_runs(student, data, asked.train.dtype_policy, chosen)
        model = GuidedStudent(student, teacher, guide.guide_weight)
        spec = replace(spec, train=checked_config(student, data, spec.train))
        record = run_record(spec, student, chosen) | {"guide": vars(guide)}
        objective = Objective(CLASSIFICATION.compiled, CLASSIFICATION.monitor, _finish)
        _, metrics = run_experiment(model, data, spec.train, record=record, objective=objective)
    print(summary(metrics, spec.train.output))


if __name__ == "__main__":
    main(sys.argv[1:])
