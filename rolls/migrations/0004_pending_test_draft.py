from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0003_applied_wounds"),
    ]

    operations = [
        migrations.AddField(
            model_name="pendingtest",
            name="draft",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
