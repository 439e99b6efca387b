from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0006_random_tables"),
    ]

    operations = [
        migrations.AddField(
            model_name="pendingtest",
            name="draft",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
