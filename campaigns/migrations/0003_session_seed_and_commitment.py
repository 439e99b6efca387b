"""Fair dice: a secret seed per game session and its SHA-256 commitment (ENGINE.md)."""

from django.db import migrations, models

import rolls.engine.fair


def seed_each_session(apps, schema_editor):
    # AddField's callable default is called once for all existing rows: give each its own seed.
    GameSession = apps.get_model("campaigns", "GameSession")
    for session in GameSession.objects.all().only("pk"):
        seed = rolls.engine.fair.new_seed()
        GameSession.objects.filter(pk=session.pk).update(
            seed=seed, commitment=rolls.engine.fair.commitment(seed)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0002_game_sessions_and_scenes"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamesession",
            name="seed",
            field=models.CharField(
                default=rolls.engine.fair.new_seed, editable=False, max_length=64
            ),
        ),
        migrations.AddField(
            model_name="gamesession",
            name="commitment",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.RunPython(seed_each_session, migrations.RunPython.noop),
    ]
